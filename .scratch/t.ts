import { readFileSync, readdirSync } from "node:fs";
import { fastParse } from "../src/format/fast-yaml.ts";
import { parseSource } from "../src/format/source.ts";
import { hashJson } from "../src/format/identity.ts";
import { checkRules } from "../src/format/rules.ts";
import { checkWarnings } from "../src/format/warnings.ts";
import { checkExpressions } from "../src/loader/expression-rules.ts";
import { stepfileWarnings } from "../src/loader/warnings.ts";
import { compileStepfile } from "../src/loader/compile.ts";
import { canonicalFormIssues } from "../src/format/canonical-form.ts";
import structure from "../src/loader/structure-check.ts";
const dir = "/work/wt-harden-a/awesome-stepfiles";
const files: string[] = [];
const walk = (d: string) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = `${d}/${e.name}`; if (e.isDirectory()) walk(p); else if (/\.stepfile\.(yaml|json)$/.test(e.name)) files.push(p); } };
walk(dir);
const texts = files.map((f) => readFileSync(f, "utf8"));
const T: Record<string, number> = {};
const time = (k: string, f: () => unknown) => { const s = performance.now(); const r = f(); T[k] = (T[k] ?? 0) + performance.now() - s; return r; };
for (let round = 0; round < 2; round++) { for (const k in T) delete T[k];
for (const text of texts) {
  const fast = time("fast", () => fastParse(text)) as any;
  const p = time("parseSource", () => parseSource(text)) as any;
  const doc = p.data;
  time("hash", () => hashJson(doc));
  time("canon", () => canonicalFormIssues(doc));
  time("structure", () => structure(doc));
  time("rules", () => checkRules(doc));
  time("expr", () => checkExpressions(doc));
  time("checkWarnings", () => checkWarnings(doc));
  time("stepfileWarnings", () => stepfileWarnings(doc));
  time("compileFull", () => compileStepfile(doc));
  time("compileChecked", () => compileStepfile(doc, { checked: true }));
  if (!fast) T.nofast = (T.nofast ?? 0) + 1;
}
console.log(files.length, Object.fromEntries(Object.entries(T).map(([k, v]) => [k, +v.toFixed(1)])));
}
