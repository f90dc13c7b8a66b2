import { readFileSync } from "node:fs";
import { execSync } from "node:child_process";
import { parseSource } from "./src/format/source.ts";
import { KNOWN_FORMATS } from "./src/jsonschema/ajv.ts";
const files = execSync("find awesome-stepfiles -name '*.stepfile.*' | sort", { encoding: "utf8" }).trim().split("\n");
for (const f of files) {
  const p = parseSource(readFileSync(f, "utf8")) as any;
  const d = p.data;
  const why: string[] = [];
  const walk = (v: any, path: string) => { if (Array.isArray(v)) v.forEach((x, i) => walk(x, path + "/" + i)); else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) { if (k.startsWith("$") && k !== "$defs") why.push(path + "/" + k); if (k === "format" && typeof x === "string" && !KNOWN_FORMATS.has(x)) why.push(path + " format " + x); walk(x, path + "/" + k); } };
  walk(d.$defs, "$defs"); walk(d.inputs, "inputs");
  d.steps.forEach((s: any, i: number) => { walk(s.produces, `steps/${i}/produces`); (s.gates ?? []).forEach((g: any, j: number) => walk(g.schema, `steps/${i}/gates/${j}`)); });
  if (why.length) console.log(f.split("/").at(-1), why.slice(0, 5));
}
