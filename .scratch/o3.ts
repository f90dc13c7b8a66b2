import { readProcedure } from "../src/authoring/markdown-procedure.ts";
import { outline } from "../src/authoring/outline.ts";
import { parseSource } from "../src/format/source.ts";
const md = "# Proc\n\n" + Array.from({ length: 200 }, (_, i) => `${i + 1}. Do thing ${i}. You MUST check item ${i}.`).join("\n") + "\n";
outline(md);
let t = performance.now(); readProcedure(md); console.log("read", Math.round(performance.now() - t));
t = performance.now(); const o = outline(md); console.log("outline", Math.round(performance.now() - t));
t = performance.now(); const p = parseSource(o.stepfile) as any; console.log("parse", Math.round(performance.now() - t), o.stepfile.length);
t = performance.now(); p.locate(["steps", 100, "gates", 0]); console.log("locate", Math.round(performance.now() - t));
