// `npm run catalog:index`: refresh each catalog entry's "Try it" output from
// the built CLI, then write awesome-stepfiles/README.md from the entries.
// Run `npm run build` first: the outputs come from dist/, as users get them.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { indexText, indexedEntries } from "./catalog/index-text.js";
import { portableOutput, readTryIt, withTryItOutput } from "./catalog/readme.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const root = join(repo, "awesome-stepfiles");
const bin = join(repo, "bin", "stepgate.js");

for (const entry of await indexedEntries(root)) {
  const file = join(dirname(entry.file), "README.md");
  const readme = readFileSync(file, "utf8");
  const tryIt = readTryIt(readme);
  if (!tryIt) {
    process.stderr.write(`${file}: no "## Try it" command and output block; see awesome-stepfiles/CONTRIBUTING.md\n`);
    process.exitCode = 1;
    continue;
  }
  let stdout: string;
  try {
    stdout = execFileSync(process.execPath, [bin, ...tryIt.args], { cwd: repo, encoding: "utf8" });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    process.stderr.write(`${file}: npx stepgate ${tryIt.args.join(" ")} failed:\n${e.stdout ?? ""}${e.stderr ?? ""}`);
    process.exitCode = 1;
    continue;
  }
  const updated = withTryItOutput(readme, portableOutput(stdout, repo));
  if (updated !== readme) writeFileSync(file, updated);
}
writeFileSync(join(root, "README.md"), indexText(root, await indexedEntries(root)));
