// Reading a cases file (format section 9): parse with positions, check its
// shape, then check it against the stepfile it tests, so a typo in a step or
// gate id is an error naming its line rather than a puzzling verdict.
import { readBounded, type BoundedRead } from "../format/read-bounded.js";
import { DEFAULT_MAX_STEPFILE_BYTES } from "../limits.js";
import { capText } from "../quote.js";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { listIssues, type Issue } from "../errors.js";
import { pointerPath } from "../format/path.js";
import { parseSource, pathString, type ParsedSource, type PathSegment } from "../format/source.js";
import type { LoadedStepfile } from "../loader/load.js";

/** One recorded call: the evidence gates see, plus the status an `accept` list needs on replay. */
export interface CaseCall {
  tool: string;
  arguments: Record<string, unknown>;
  result: unknown;
  is_error: boolean;
  status?: number;
}

export type Expectation = "pass" | { fail: string[] };

/** One attempt at one step. */
export interface CaseEntry {
  step: string;
  calls: CaseCall[];
  output: unknown;
  expect: Expectation;
  line?: number;
}

export interface Case {
  name: string;
  inputs: Record<string, unknown>;
  steps: CaseEntry[];
  line?: number;
}

export interface CasesFile {
  path: string;
  cases: Case[];
}

export class CasesInvalid extends Error {
  override readonly name = "CasesInvalid";
  constructor(
    readonly file: string,
    readonly issues: Issue[],
  ) {
    super(`${file} is not a valid cases file:\n${listIssues(issues, file)}`);
  }
}

export class CasesUnreadable extends Error {
  override readonly name = "CasesUnreadable";
}

const call = {
  type: "object",
  required: ["tool", "result"],
  additionalProperties: false,
  properties: {
    tool: { type: "string", minLength: 1 },
    arguments: { type: "object" },
    result: true,
    is_error: { type: "boolean" },
    status: { type: "integer", minimum: 100, maximum: 599 },
  },
};
const expectation = {
  anyOf: [
    { const: "pass" },
    {
      type: "object",
      required: ["fail"],
      additionalProperties: false,
      properties: { fail: { type: "array", minItems: 1, uniqueItems: true, items: { type: "string" } } },
    },
  ],
};
const shape = {
  type: "object",
  required: ["cases"],
  additionalProperties: false,
  properties: {
    cases: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        required: ["name", "steps"],
        additionalProperties: false,
        properties: {
          name: { type: "string", minLength: 1 },
          inputs: { type: "object" },
          steps: {
            type: "array",
            minItems: 1,
            items: {
              type: "object",
              required: ["step", "output", "expect"],
              additionalProperties: false,
              properties: { step: { type: "string" }, calls: { type: "array", items: call }, output: true, expect: expectation },
            },
          },
        },
      },
    },
  },
};
const checkShape = new Ajv2020({ allErrors: true, strict: true }).compile(shape);

interface RawCases {
  cases: Array<{ name: string; inputs?: Record<string, unknown>; steps: Array<{ step: string; calls?: Array<Omit<CaseCall, "arguments" | "is_error"> & Partial<CaseCall>>; output: unknown; expect: Expectation }> }>;
}

export async function readCasesFile(path: string, stepfile: LoadedStepfile, maxBytes = DEFAULT_MAX_STEPFILE_BYTES): Promise<CasesFile> {
  let read: BoundedRead;
  try {
    read = await readBounded(path, maxBytes);
  } catch (error) {
    throw new CasesUnreadable(`${path} could not be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if ("tooLarge" in read) {
    const refused = new CasesInvalid(path, [{ path: "", message: read.tooLarge }]);
    refused.message = `${path} ${read.tooLarge}`;
    throw refused;
  }
  return parseCases(read.text, path, stepfile);
}

export function parseCases(text: string, path: string, stepfile: LoadedStepfile): CasesFile {
  const parsed = parseSource(text);
  if ("issues" in parsed) throw new CasesInvalid(path, parsed.issues);
  const at = (where: PathSegment[], message: string): Issue => {
    const pos = parsed.locate(where);
    return { path: pathString(where), message, ...(pos ? { line: pos.line, column: pos.column } : {}) };
  };
  if (!checkShape(parsed.data)) throw new CasesInvalid(path, shapeIssues(checkShape.errors ?? [], at));
  const raw = parsed.data as unknown as RawCases;
  const issues = checkAgainst(raw, stepfile, at);
  if (issues.length > 0) throw new CasesInvalid(path, issues);
  return { path, cases: raw.cases.map((c, ci) => toCase(c, ["cases", ci], parsed)) };
}

function toCase(c: RawCases["cases"][number], where: PathSegment[], parsed: ParsedSource): Case {
  const line = (p: PathSegment[]) => parsed.locate(p)?.line;
  return {
    name: c.name,
    inputs: c.inputs ?? {},
    steps: c.steps.map((e, ei) => ({
      step: e.step,
      calls: (e.calls ?? []).map((k) => ({ ...k, arguments: k.arguments ?? {}, is_error: k.is_error ?? false })),
      output: e.output,
      expect: e.expect,
      ...withLine(line([...where, "steps", ei])),
    })),
    ...withLine(line(where)),
  };
}

function withLine(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}

/** Step ids, operations and gate ids must exist where each entry uses them. */
function checkAgainst(raw: RawCases, stepfile: LoadedStepfile, at: (where: PathSegment[], message: string) => Issue): Issue[] {
  const issues: Issue[] = [];
  const steps = new Map(stepfile.compiled.steps.map((s) => [s.def.id, s]));
  raw.cases.forEach((c, ci) =>
    c.steps.forEach((entry, ei) => {
      const where: PathSegment[] = ["cases", ci, "steps", ei];
      const step = steps.get(entry.step);
      if (!step) {
        issues.push(at([...where, "step"], `${stepfile.doc.id} has no step ${entry.step}`));
        return;
      }
      const operations = step.mechanical ? step.calls.map((k) => k.operation) : (step.def.tools ?? []);
      (entry.calls ?? []).forEach((k, ki) => {
        if (!operations.includes(k.tool)) {
          const may = operations.length > 0 ? operations.join(", ") : "nothing";
          issues.push(at([...where, "calls", ki, "tool"], `step ${entry.step} does not call ${k.tool} (it may call: ${may})`));
        }
      });
      if (typeof entry.expect === "object") {
        const gates = ["produces", ...(step.derive.length > 0 ? ["derive"] : []), ...step.gates.map((g) => g.id)];
        entry.expect.fail.forEach((gate, gi) => {
          if (!gates.includes(gate)) issues.push(at([...where, "expect", "fail", gi], `step ${entry.step} has no gate ${gate} (its gates: ${gates.join(", ")})`));
        });
      }
    }),
  );
  return issues;
}

function shapeIssues(errors: readonly ErrorObject[], at: (where: PathSegment[], message: string) => Issue): Issue[] {
  const issues = new Map<string, Issue>();
  for (const e of errors) {
    const where = pointerPath(e.instancePath);
    const p = e.params as Record<string, unknown>;
    let issue: Issue;
    // The two spellings of `expect` each report their own errors; one plain sentence says it better.
    const inExpect = where.indexOf("expect");
    if (inExpect >= 0) issue = at(where.slice(0, inExpect + 1), "expect must be pass or { fail: [gate ids] }");
    else if (e.keyword === "additionalProperties") issue = at([...where, String(p.additionalProperty)], `unknown field ${capText(String(p.additionalProperty))}`);
    else if (e.keyword === "required") issue = at(where, `missing required field ${String(p.missingProperty)}`);
    else issue = at(where, e.message ?? "is invalid");
    issues.set(`${issue.path}\u0000${issue.message}`, issue);
  }
  return [...issues.values()];
}
