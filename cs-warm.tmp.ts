import { readFileSync } from "node:fs";
import { execSync } from "node:child_process";
import { loadStepfileText } from "./src/loader/load.ts";
import { parseSource } from "./src/format/source.ts";
const files = execSync("find awesome-stepfiles -name '*.stepfile.*' | sort", { encoding: "utf8" }).trim().split("\n");
const texts = files.map((f) => readFileSync(f, "utf8"));
for (let r = 0; r < 5; r++) for (const t of texts) loadStepfileText(t, "x");
const per: number[] = []; const parse: number[] = [];
for (const [i, t] of texts.entries()) {
  const s: number[] = []; const p: number[] = [];
  for (let r = 0; r < 15; r++) { let a = performance.now(); loadStepfileText(t, "x"); s.push(performance.now() - a); a = performance.now(); parseSource(t); p.push(performance.now() - a); }
  s.sort((a, b) => a - b); p.sort((a,b)=>a-b);
  per.push(s[7]!); parse.push(p[7]!);
  console.log(files[i]!.split("/").at(-1), s[7]!.toFixed(2), p[7]!.toFixed(2));
}
per.sort((a, b) => a - b);
console.log("median over catalog", per[14]!.toFixed(2));
