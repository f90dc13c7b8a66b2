// Survivors an author has judged harmless, each with the reason. They live
// in a file of their own beside the cases file (`<id>.mutants.yaml` for
// `<id>.cases.yaml`), not in it: the cases format (section 9) is read by
// other runtimes too, which would warn of, or refuse, a field it does not
// have, while a file they do not know of is one they never open.
import { Ajv2020 } from "ajv/dist/2020.js";
import { listIssues, type Issue } from "../../errors.js";
import { readBounded } from "../../format/read-bounded.js";
import { pointerPath } from "../../format/path.js";
import { parseSource, pathString, type PathSegment } from "../../format/source.js";
import type { LoadedStepfile } from "../../loader/load.js";

export interface AcceptedSurvivor {
  step: string;
  mutation: string;
  /** Absent: at every path of the step. */
  path?: string;
  /** Absent: in every case. */
  case?: string;
  reason: string;
  line?: number;
}

export interface AcceptedList {
  path: string;
  entries: AcceptedSurvivor[];
}

export class MutantsFileInvalid extends Error {
  override readonly name = "MutantsFileInvalid";
  constructor(
    readonly file: string,
    readonly issues: Issue[],
  ) {
    super(`${file} is not a valid accepted-mutants file:\n${listIssues(issues, file)}`);
  }
}

const checkShape = new Ajv2020({ allErrors: true, strict: true }).compile({
  type: "object",
  required: ["accept"],
  additionalProperties: false,
  properties: {
    accept: {
      type: "array",
      items: {
        type: "object",
        required: ["step", "mutation", "reason"],
        additionalProperties: false,
        properties: {
          step: { type: "string", minLength: 1 },
          mutation: { type: "string", minLength: 1 },
          path: { type: "string" },
          case: { type: "string" },
          reason: { type: "string", minLength: 1, pattern: "\\S" },
        },
      },
    },
  },
});

/** `release-notes.cases.yaml` -> `release-notes.mutants.yaml`. */
export function acceptedPathFor(casesPath: string): string {
  return /\.cases\.ya?ml$/i.test(casesPath) ? casesPath.replace(/\.cases\.ya?ml$/i, ".mutants.yaml") : `${casesPath}.mutants.yaml`;
}

/** The file beside the cases file, or an empty list when there is none. */
export async function readAccepted(casesPath: string, stepfile: LoadedStepfile, kinds: readonly string[], maxBytes: number): Promise<AcceptedList> {
  const path = acceptedPathFor(casesPath);
  let text: string;
  try {
    const read = await readBounded(path, maxBytes);
    if ("tooLarge" in read) throw new MutantsFileInvalid(path, [{ path: "", message: read.tooLarge }]);
    text = read.text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { path, entries: [] };
    if (error instanceof MutantsFileInvalid) throw error;
    throw new MutantsFileInvalid(path, [{ path: "", message: `could not be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }]);
  }
  return parseAccepted(text, path, stepfile, kinds);
}

export function parseAccepted(text: string, path: string, stepfile: LoadedStepfile, kinds: readonly string[]): AcceptedList {
  const parsed = parseSource(text);
  if ("issues" in parsed) throw new MutantsFileInvalid(path, parsed.issues);
  const at = (where: PathSegment[], message: string): Issue => {
    const pos = parsed.locate(where);
    return { path: pathString(where), message, ...(pos ? { line: pos.line, column: pos.column } : {}) };
  };
  if (!checkShape(parsed.data)) {
    const issues = (checkShape.errors ?? []).map((e) => {
      const p = e.params as Record<string, unknown>;
      const where = pointerPath(e.instancePath);
      if (e.keyword === "additionalProperties") return at([...where, String(p.additionalProperty)], `unknown field ${String(p.additionalProperty)}`);
      if (e.keyword === "required") return at(where, `missing required field ${String(p.missingProperty)}`);
      return at(where, where[where.length - 1] === "reason" ? "the reason must say why the survivor is harmless" : (e.message ?? "is invalid"));
    });
    throw new MutantsFileInvalid(path, issues);
  }
  const entries = (parsed.data as { accept: AcceptedSurvivor[] }).accept;
  const steps = new Set(stepfile.compiled.steps.map((s) => s.def.id));
  const issues: Issue[] = [];
  entries.forEach((e, i) => {
    if (!steps.has(e.step)) issues.push(at(["accept", i, "step"], `${stepfile.doc.id} has no step ${e.step}`));
    if (!kinds.includes(e.mutation)) issues.push(at(["accept", i, "mutation"], `no mutation is named ${e.mutation} (mutations: ${kinds.join(", ")})`));
  });
  if (issues.length > 0) throw new MutantsFileInvalid(path, issues);
  return { path, entries: entries.map((e, i) => ({ ...e, ...withLine(parsed.locate(["accept", i])?.line) })) };
}

function withLine(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}

/** The index of the accepted entry that covers a survivor; -1 when none does. */
export function acceptedFor(list: AcceptedList | undefined, survivor: { case: string; step: string; path: string; mutation: string }): number {
  return (list?.entries ?? []).findIndex((e) => e.step === survivor.step && e.mutation === survivor.mutation && (e.path === undefined || e.path === survivor.path) && (e.case === undefined || e.case === survivor.case));
}
