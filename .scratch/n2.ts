import { flowTooDeep } from "../src/format/nesting.ts";
const t = `stepgate: "1"\nid: keys\n${Array.from({ length: 20_000 }, (_, i) => `k${i}: { a: [1, 2, "x"] } # c`).join("\n")}\n`;
for (let i = 0; i < 3; i++) { const s = performance.now(); flowTooDeep(t, 128); console.log(t.length, (performance.now() - s).toFixed(1), "ms"); }
