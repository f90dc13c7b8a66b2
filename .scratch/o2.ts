import { outline } from "../src/authoring/outline.ts";
for (const n of [200, 200, 20000]) {
  const md = "# Proc\n\n" + Array.from({ length: n }, (_, i) => `${i + 1}. Do thing ${i}. You MUST check item ${i}.`).join("\n") + "\n";
  const t = performance.now();
  try { const o = outline(md); console.log(n, o.steps); } catch (e) { console.log(n, (e as Error).message); }
  console.log(n, md.length, Math.round(performance.now() - t), "ms");
}
const md = "# Proc\n\n" + Array.from({ length: 5000 }, (_, i) => `${i + 1}. Do ${i}.`).join("\n");
const t = performance.now(); try { outline(md); } catch (e) { console.log((e as Error).message); } console.log(5000, md.length, Math.round(performance.now() - t), "ms");
