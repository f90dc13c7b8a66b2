import { outline } from "../src/authoring/outline.ts";
for (const n of [500, 1000, 2000, 20000]) {
  const md = "# Proc\n\n" + Array.from({ length: n }, (_, i) => `${i + 1}. Do thing ${i}. You MUST check item ${i}.`).join("\n") + "\n";
  const t = performance.now();
  const o = outline(md);
  console.log(n, md.length, o.steps, Math.round(performance.now() - t), "ms");
  if (n >= 2000 && performance.now() - t > 60000) break;
}
