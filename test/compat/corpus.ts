// The compatibility corpus: stepfiles and cases files written the way
// independent authors write them, one folder each under corpus/. A folder
// holds `<id>.stepfile.yaml` (or `.json`), `<id>.cases.yaml`, and, when its
// run reaches an API, `api.yaml`: the loopback API that run talks to.
//
// api.yaml routes answer with what the cases file recorded (`from: [case,
// entry, call]`, or a list of those answered in turn, for one route that
// cases reach in order), so the live API and the recording cannot disagree. The
// recorded form is read here, independently of Stepgate's reader: an error
// written as the client saw it, `HTTP <status>: <body>`, is served as that
// status with that body.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { ApiAnswer, ApiRoute } from "../support/api-fixture.js";

export const CORPUS = new URL("./corpus/", import.meta.url).pathname;

export interface RecordedCall {
  tool: string;
  arguments?: Record<string, unknown>;
  result: unknown;
  is_error?: boolean;
  status?: number;
}

export interface CaseEntryText {
  step: string;
  calls?: RecordedCall[];
  output: unknown;
  expect: "pass" | { fail: string[] };
}

export interface CaseText {
  name?: string;
  inputs?: Record<string, unknown>;
  steps: CaseEntryText[];
}

export interface CorpusEntry {
  name: string;
  dir: string;
  stepfile: string;
  cases: string;
  doc: { id: string; settings?: Record<string, unknown>; steps: Array<{ id: string; do?: unknown; retries?: number }> };
  parsedCases: { cases: CaseText[] };
  /** Routes of the loopback API, when the stepfile calls one. */
  routes?: ApiRoute[];
}

type Triple = [number, number, number];

interface RouteText {
  method: string;
  path: string;
  from?: Triple | Triple[];
  status?: number;
  json?: unknown;
  text?: string;
}

/** Every folder holding a stepfile and a cases file (the corpus test counts them). */
export function corpusEntries(): CorpusEntry[] {
  return readdirSync(CORPUS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const dir = join(CORPUS, name);
      const files = readdirSync(dir);
      const stepfile = files.find((f) => /\.stepfile\.(ya?ml|json)$/.test(f));
      const cases = files.find((f) => f.endsWith(".cases.yaml"));
      if (!stepfile || !cases) return undefined;
      const doc = parse(readFileSync(join(dir, stepfile), "utf8")) as CorpusEntry["doc"];
      const parsedCases = parse(readFileSync(join(dir, cases), "utf8"), { maxAliasCount: -1, merge: true }) as CorpusEntry["parsedCases"];
      const entry: CorpusEntry = { name, dir, stepfile: join(dir, stepfile), cases: join(dir, cases), doc, parsedCases };
      if (files.includes("api.yaml")) {
        const api = parse(readFileSync(join(dir, "api.yaml"), "utf8")) as { routes: RouteText[] };
        entry.routes = api.routes.map((r) => ({ method: r.method, path: r.path, answers: answersOf(r, parsedCases) }));
      }
      return entry;
    })
    .filter((e): e is CorpusEntry => e !== undefined);
}

function answersOf(route: RouteText, cases: { cases: CaseText[] }): ApiAnswer[] {
  if (!route.from) return [{ status: route.status ?? 200, ...(route.json !== undefined ? { json: route.json } : { text: route.text ?? "" }) }];
  const triples = Array.isArray(route.from[0]) ? (route.from as Triple[]) : [route.from as Triple];
  return triples.map(([c, e, k]) => {
    const call = cases.cases[c]?.steps[e]?.calls?.[k];
    if (!call) throw new Error(`route ${route.method} ${route.path}: no recorded call at ${[c, e, k].join(", ")}`);
    return answerFor(call);
  });
}

/** What the API sent for a recorded call. */
export function answerFor(call: RecordedCall): ApiAnswer {
  const asText = call.is_error === true && call.status === undefined && typeof call.result === "string" ? /^HTTP (\d{3})(?:: ([\s\S]*))?$/.exec(call.result) : null;
  if (asText) return bodyAnswer(Number(asText[1]), asText[2] ?? "");
  const status = call.status ?? (call.is_error ? 500 : 200);
  if (typeof call.result === "string") return { status, text: call.result };
  return { status, json: call.result };
}

/** A body written as text: JSON when it parses, so the API labels it as JSON. */
function bodyAnswer(status: number, body: string): ApiAnswer {
  try {
    return { status, json: JSON.parse(body) };
  } catch {
    return { status, text: body };
  }
}

/** Environment for the stepfile's settings: every corpus setting names the fixture's port. */
export function settingsEnv(entry: CorpusEntry, port: number): Record<string, string> {
  return Object.fromEntries(Object.keys(entry.doc.settings ?? {}).map((name) => [name.toUpperCase().replaceAll("-", "_"), String(port)]));
}

export function mechanicalSteps(entry: CorpusEntry): Set<string> {
  return new Set(entry.doc.steps.filter((s) => s.do !== undefined).map((s) => s.id));
}

/**
 * The entries of `kase` a live run plays: all of them, unless the case lists
 * more attempts for a step than its `retries` allow (which `--test` evaluates,
 * with a note). A live run fails at the last attempt it has, so it stops there.
 */
export function liveEntries(entry: CorpusEntry, kase: CaseText): CaseEntryText[] {
  const made = new Map<string, number>();
  for (const [index, step] of kase.steps.entries()) {
    const attempt = (made.get(step.step) ?? 0) + 1;
    made.set(step.step, attempt);
    const allowed = 1 + (entry.doc.steps.find((s) => s.id === step.step)?.retries ?? 0);
    if (attempt === allowed && step.expect !== "pass") return kase.steps.slice(0, index + 1);
  }
  return kase.steps;
}
