// A conformance case (format section 10) read as cases to mutate: its
// inline stepfile, and the attempts its `submit` actions make when played
// through the real engine with nothing to call. Those attempts, with the
// engine's own verdicts, become one case, so `--mutate` runs over suites
// written by others in place. A `call` action or a mechanical step that
// calls a tool needs the case's local fixtures, so the case stops there:
// what came before is still mutated.
import { readBounded } from "../../format/read-bounded.js";
import { parseSource } from "../../format/source.js";
import type { Limits, RunContext } from "../../engine/context.js";
import type { Attempt } from "../../engine/observer.js";
import { Run } from "../../engine/run.js";
import { loadStepfileText, type LoadedStepfile } from "../../loader/load.js";
import { CasesInvalid, CasesUnreadable, type CaseEntry, type CasesFile } from "../cases-file.js";
import { ReplayToolbox } from "../replay-toolbox.js";

/** What the fixtures' placeholders stand for: a loopback address nothing is asked at. */
const FIXTURE_VALUES: Readonly<Record<string, string>> = {
  "${api.origin}": "http://127.0.0.1:9",
  "${api.host}": "127.0.0.1:9",
  "${mcp.origin}": "http://127.0.0.1:9",
  "${mcp.host}": "127.0.0.1:9",
};

interface ConformanceCase {
  name?: string;
  stepfile: unknown;
  inputs?: Record<string, unknown>;
  actions?: Array<{ submit?: unknown; call?: string }>;
}

export async function readConformanceCase(path: string, limits: Pick<Limits, "callsPerStep" | "toolResultChars">, maxBytes: number): Promise<{ stepfile: LoadedStepfile; cases: CasesFile }> {
  let text: string;
  try {
    const read = await readBounded(path, maxBytes);
    if ("tooLarge" in read) throw new CasesInvalid(path, [{ path: "", message: read.tooLarge }]);
    text = read.text;
  } catch (error) {
    if (error instanceof CasesInvalid) throw error;
    throw new CasesUnreadable(`${path} could not be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const parsed = parseSource(text);
  if ("issues" in parsed) throw new CasesInvalid(path, parsed.issues);
  const data = parsed.data as unknown as ConformanceCase;
  if (!data || typeof data !== "object" || !data.stepfile || (typeof data.stepfile !== "object" && typeof data.stepfile !== "string")) {
    throw new CasesInvalid(path, [{ path: "stepfile", message: "a conformance case holds its stepfile inline, under stepfile" }]);
  }
  let source = typeof data.stepfile === "string" ? data.stepfile : JSON.stringify(data.stepfile);
  for (const [placeholder, value] of Object.entries(FIXTURE_VALUES)) source = source.split(placeholder).join(value);
  const stepfile = loadStepfileText(source, path);
  const inputs = data.inputs ?? {};
  const steps = await play(stepfile, inputs, data.actions ?? [], limits);
  return { stepfile, cases: { path, cases: [{ name: data.name ?? path, inputs, steps }], warnings: [] } };
}

/** The attempts the submit actions make, up to the first action that needs a fixture. */
async function play(stepfile: LoadedStepfile, inputs: Record<string, unknown>, actions: NonNullable<ConformanceCase["actions"]>, limits: Pick<Limits, "callsPerStep" | "toolResultChars">): Promise<CaseEntry[]> {
  const toolbox = await ReplayToolbox.open(stepfile);
  // No recorded calls: a tool call fails, and the attempts before it are what is kept.
  toolbox.load(undefined);
  const attempts: Attempt[] = [];
  const ctx: RunContext = {
    limits,
    ledger: () => ({ append: () => undefined }),
    newRunId: () => "conformance",
    openToolbox: (_s, _l, checkInputs) => {
      checkInputs();
      return Promise.resolve(toolbox);
    },
    approver: toolbox.approver,
    attemptBudget: "unbounded",
    observe: () => ({ attempt: (a) => void attempts.push(a) }),
  };
  const { run, reply } = await Run.start(stepfile, inputs, ctx);
  let state = reply.state;
  for (const action of actions) {
    if (state !== "running" || !("submit" in action)) break;
    state = (await run.submit(action.submit)).state;
  }
  await run.abandon("server_closed");
  return attempts.map((a) => ({
    step: a.step,
    calls: a.calls.map((k) => ({ tool: k.tool, arguments: k.arguments as Record<string, unknown>, result: k.result, is_error: k.is_error, ...(k.status !== null && k.is_error ? { status: k.status } : {}) })),
    output: a.output ?? null,
    expect: a.failures.length === 0 ? ("pass" as const) : { fail: a.failures.map((f) => f.gate) },
  }));
}
