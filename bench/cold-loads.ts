// Run by cold-start.bench.ts, one fresh process a sample: what the loads of
// a first launch cost while the code that makes them is cold, without
// Node's start or the server around them. `parse`: reading each file's YAML
// (the fast reader, positions included), which every check starts from;
// `load`: loading each as serving does before its first answer (every
// refusal check; warnings wait). Prints the loop's milliseconds.
//   node --import tsx bench/cold-loads.ts parse|load <stepfile>...
import { readFileSync } from "node:fs";
import { parseSource } from "../src/format/source.js";
import { loadStepfileTextDeferred } from "../src/loader/load.js";

const [mode, ...files] = process.argv.slice(2);
if (mode !== "parse" && mode !== "load") throw new Error("usage: cold-loads.ts parse|load <stepfile>...");
const texts = files.map((file) => readFileSync(file, "utf8"));
const started = performance.now();
texts.forEach((text, i) => {
  if (mode === "load") loadStepfileTextDeferred(text, files[i]!);
  else if ("issues" in parseSource(text)) throw new Error(`${files[i]} does not parse`);
});
process.stdout.write(String(performance.now() - started));
