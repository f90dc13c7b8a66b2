import { readFileSync } from "node:fs";
import { execSync } from "node:child_process";
import { parseSource } from "./src/format/source.ts";
const files = execSync("find awesome-stepfiles test/compat/corpus -name '*.stepfile.*' | sort", { encoding: "utf8" }).trim().split("\n");
const counts = new Map<string, number>();
function walk(v: unknown) {
  if (Array.isArray(v)) return v.forEach(walk);
  if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) {
    if (["$ref","$dynamicRef","$id","$anchor","$schema","$dynamicAnchor"].includes(k)) counts.set(`${k}=${typeof x === "string" ? x.replace(/[A-Za-z0-9_-]+$/, "X") : typeof x}`, (counts.get(`${k}=${typeof x === "string" ? x.replace(/[A-Za-z0-9_-]+$/, "X") : typeof x}`) ?? 0) + 1);
    if (k === "format") counts.set(`format=${x}`, (counts.get(`format=${x}`) ?? 0) + 1);
    walk(x);
  }
}
for (const f of files) { const p = parseSource(readFileSync(f, "utf8")); if ("data" in p) walk(p.data); }
console.log(counts);
