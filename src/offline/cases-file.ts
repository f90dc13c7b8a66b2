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
import { exposedName } from "../format/types.js";
import type { LoadedStepfile } from "../loader/load.js";
import { readErrorText } from "./recorded-error.js";

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
  /** Likely mistakes the format does not forbid: unknown fields, nothing to check. */
  warnings: Issue[];
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

/**
 * The shape of a cases file. Format section 9 gives its fields but refuses
 * nothing beyond them, so `closed` (fields outside the format) is only
 * checked for warnings: a misspelt optional field is reported, not refused.
 */
function shapeOf(closed: boolean) {
  const object = (properties: Record<string, unknown>, required: string[]) => ({
    type: "object",
    required,
    properties,
    ...(closed ? { additionalProperties: false } : {}),
  });
  const call = object(
    {
      tool: { type: "string", minLength: 1 },
      arguments: { type: "object" },
      result: true,
      is_error: { type: "boolean" },
      status: { type: "integer", minimum: 100, maximum: 599 },
    },
    ["tool", "result"],
  );
  const expectation = {
    anyOf: [{ const: "pass" }, object({ fail: { type: "array", items: { type: "string" } } }, ["fail"])],
  };
  const entry = object({ step: { type: "string" }, calls: { type: "array", items: call }, output: true, expect: expectation }, ["step", "output", "expect"]);
  const kase = object({ name: { type: "string" }, inputs: { type: "object" }, steps: { type: "array", items: entry } }, ["steps"]);
  return object({ cases: { type: "array", items: kase } }, ["cases"]);
}
const checkShape = new Ajv2020({ allErrors: true, strict: true }).compile(shapeOf(false));
const checkClosed = new Ajv2020({ allErrors: true, strict: true }).compile(shapeOf(true));

interface RawCases {
  cases: Array<{ name?: string; inputs?: Record<string, unknown>; steps: Array<{ step: string; calls?: Array<Omit<CaseCall, "arguments" | "is_error"> & Partial<CaseCall>>; output: unknown; expect: Expectation }> }>;
}

export async function readCasesFile(path: string, stepfile: LoadedStepfile, maxBytes = DEFAULT_MAX_STEPFILE_BYTES): Promise<CasesFile> {
  let read: BoundedRead;
  try {
    read = await readBounded(path, maxBytes);
  } catch (error) {
    throw new CasesUnreadable(`${capText(path)} could not be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
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
  const at = (where: PathSegment[], message: string, atKey?: boolean): Issue => {
    const pos = parsed.locate(where, atKey);
    return { path: pathString(where), message, ...(pos ? { line: pos.line, column: pos.column } : {}) };
  };
  if (!checkShape(parsed.data)) throw new CasesInvalid(path, shapeIssues(checkShape.errors ?? [], at));
  const raw = parsed.data as unknown as RawCases;
  const issues = checkAgainst(raw, stepfile, at);
  if (issues.length > 0) throw new CasesInvalid(path, issues);
  const warnings = [...(parsed.warnings ?? []), ...unknownFields(parsed.data, at), ...emptiness(raw, at)];
  return { path, cases: raw.cases.map((c, ci) => toCase(c, ["cases", ci], parsed, openApiOperations(stepfile))), warnings };
}

/** Fields the format does not have: ignored, and reported in case one is a misspelt optional field. */
function unknownFields(data: unknown, at: (where: PathSegment[], message: string, atKey?: boolean) => Issue): Issue[] {
  if (checkClosed(data)) return [];
  const found = new Map<string, Issue>();
  for (const e of checkClosed.errors ?? []) {
    if (e.keyword !== "additionalProperties") continue;
    const field = String((e.params as { additionalProperty: string }).additionalProperty);
    const issue = at([...pointerPath(e.instancePath), field], `unknown field ${field}, ignored`, true);
    found.set(issue.path, issue);
  }
  return [...found.values()];
}

/** Parts that check nothing: allowed, but most likely not what the author meant. */
function emptiness(raw: RawCases, at: (where: PathSegment[], message: string) => Issue): Issue[] {
  const found: Issue[] = [];
  if (raw.cases.length === 0) found.push(at(["cases"], "the file has no cases, so it checks nothing"));
  raw.cases.forEach((c, ci) => {
    if (c.steps.length === 0) found.push(at(["cases", ci, "steps"], "the case has no entries, so it checks nothing"));
    c.steps.forEach((e, ei) => {
      if (typeof e.expect === "object" && e.expect.fail.length === 0) found.push(at(["cases", ci, "steps", ei, "expect"], "fail: [] expects no gate to fail, which is what pass says"));
    });
  });
  return found;
}

/** Operations of OpenAPI tools: only their error results carry an HTTP status. */
function openApiOperations(stepfile: LoadedStepfile): ReadonlySet<string> {
  return new Set(Object.values(stepfile.doc.tools ?? {}).flatMap((t) => (t.openapi ? (t.exposes ?? []).map(exposedName) : [])));
}

function toCase(c: RawCases["cases"][number], where: PathSegment[], parsed: ParsedSource, openApi: ReadonlySet<string>): Case {
  const line = (p: PathSegment[]) => parsed.locate(p)?.line;
  // An error written as the client saw it (`HTTP 404: <body>`) is read back
  // into the status and body a live run has.
  const call = (k: NonNullable<RawCases["cases"][number]["steps"][number]["calls"]>[number]): CaseCall => {
    const base = { ...k, arguments: k.arguments ?? {}, is_error: k.is_error ?? false };
    const fromText = openApi.has(k.tool) ? readErrorText(k) : undefined;
    return fromText ? { ...base, ...fromText } : base;
  };
  return {
    name: c.name ?? `case ${Number(where[1]) + 1}`,
    inputs: c.inputs ?? {},
    steps: c.steps.map((e, ei) => ({
      step: e.step,
      calls: (e.calls ?? []).map(call),
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
