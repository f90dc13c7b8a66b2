// The stepfiles whose load results the equivalence tests compare between
// the ways a load can go (test/loader/): the bundled catalog, the
// compatibility corpus, the test fixtures, and the stepfile of every
// conformance case, ours (test/conformance) and the public suite's
// (../shared/conformance, read in place when it is there, never copied),
// each case's written both as YAML and as JSON. Each text also comes with a
// few of its lines removed, so refusals and warnings are compared too.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse, stringify } from "yaml";
import { REPO_ROOT } from "./paths.js";

export interface CorpusText {
  /** Where it came from, for messages. */
  name: string;
  text: string;
  /** The file on disk it is (undefined for texts made here). */
  file?: string;
}

function files(dir: string, suffix: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name), suffix) : suffix.test(e.name) ? [join(dir, e.name)] : []))
    .sort();
}

const STEPFILE = /\.stepfile\.(ya?ml|json)$/;

/** The public conformance suite: beside the clone (as CI lays it, and test/conformance reads it), or beside the worktrees' folder. */
export const SHARED_CONFORMANCE = [join(REPO_ROOT, "..", "shared", "conformance"), join(REPO_ROOT, "..", "..", "shared", "conformance")].find((dir) => existsSync(dir)) ?? join(REPO_ROOT, "..", "shared", "conformance");

/** A conformance case's stepfile with its fixture placeholders filled in as a runner would (an unused port). */
function caseStepfile(file: string): unknown {
  const text = readFileSync(file, "utf8").replaceAll("${api.origin}", "http://127.0.0.1:9").replaceAll("${mcp.origin}", "http://127.0.0.1:9").replaceAll("${api.host}", "127.0.0.1:9").replaceAll("${mcp.host}", "127.0.0.1:9");
  return (parse(text) as { stepfile?: unknown }).stepfile;
}

/** Every stepfile on disk in the corpus, and every conformance case's stepfile as YAML and as JSON. */
export function loadCorpus(): CorpusText[] {
  const onDisk = [...files(join(REPO_ROOT, "awesome-stepfiles"), STEPFILE), ...files(join(REPO_ROOT, "test", "compat", "corpus"), STEPFILE), ...files(join(REPO_ROOT, "test", "fixtures"), STEPFILE)].map((file) => ({
    name: relative(REPO_ROOT, file),
    text: readFileSync(file, "utf8"),
    file,
  }));
  const cases = [...files(join(REPO_ROOT, "test", "conformance"), /\.case\.yaml$/), ...files(SHARED_CONFORMANCE, /\.case\.yaml$/)].flatMap((file) => {
    const stepfile = caseStepfile(file);
    if (stepfile === undefined) return [];
    const name = file.startsWith(REPO_ROOT) ? relative(REPO_ROOT, file) : `shared/conformance/${relative(SHARED_CONFORMANCE, file)}`;
    return [
      { name: `${name} (stepfile as YAML)`, text: stringify(stepfile) },
      { name: `${name} (stepfile as JSON)`, text: `${JSON.stringify(stepfile, null, 2)}\n` },
    ];
  });
  return [...onDisk, ...cases];
}

/** The text with one line removed at each quarter: some load, some are refused, some warn. */
export function withLinesRemoved(text: string): string[] {
  const lines = text.split("\n");
  return [1, 2, 3].map((quarter) => {
    const at = Math.floor((lines.length * quarter) / 4);
    return [...lines.slice(0, at), ...lines.slice(at + 1)].join("\n");
  });
}
