// Drives the engine directly through RunContext fakes of our own interfaces.
import { chainedLedgers } from "../../src/ledger/chain.js";
import { loadStepfileText } from "../../src/loader/load.js";
import { memorySinks } from "../../src/ledger/sinks.js";
import type { RunContext } from "../../src/engine/context.js";
import { emptyToolbox, type CallOutcome, type Toolbox } from "../../src/engine/toolbox.js";
import { RunRegistry } from "../../src/engine/registry.js";
import { newSession } from "../../src/session.js";

export function fakeToolbox(answers: Record<string, (args: Record<string, unknown>) => Partial<CallOutcome>>): Toolbox & { made: Array<[string, unknown]> } {
  const made: Array<[string, unknown]> = [];
  return {
    ...emptyToolbox,
    made,
    operation: (name) => (answers[name] ? { name, inputSchema: { type: "object" } } : undefined),
    checkArguments: (_name, args) => (args && typeof args === "object" && "bad" in (args as object) ? ["bad is not allowed"] : []),
    target: (name) => (answers[name] ? { tool: "fake", host: "127.0.0.1", credential: null } : undefined),
    call: async (name, args) => {
      made.push([name, args]);
      const answer = answers[name]!(args);
      const result = answer.result ?? null;
      return {
        result,
        text: answer.text ?? JSON.stringify(result),
        isError: answer.isError ?? false,
        tool: "fake",
        host: "127.0.0.1",
        status: answer.status ?? 200,
        durationMs: 1,
        credential: null,
        responseHash: "sha256:00",
        responseLength: 2,
        ...(answer.attempts !== undefined ? { attempts: answer.attempts } : {}),
      };
    },
  };
}

/** `extra` adds to the RunContext (an observer, say). */
export function harness(yaml: string, toolbox: Toolbox = emptyToolbox, limits = { callsPerStep: 100, toolResultChars: 20000 }, idleMs = 60_000, extra: Partial<RunContext> = {}) {
  const stepfile = loadStepfileText(yaml, "test.stepfile.yaml");
  const sinks = memorySinks();
  let n = 0;
  const ctx: RunContext = {
    limits,
    ledger: chainedLedgers(sinks, () => new Date("2026-11-30T12:00:00Z")),
    newRunId: () => `run-${++n}`,
    openToolbox: async (_s, _l, checkInputs) => {
      checkInputs();
      return toolbox;
    },
    ...extra,
  };
  const registry = new RunRegistry(ctx, idleMs);
  const session = newSession("s1");
  const types = (run: string) => (sinks.store.get(`${stepfile.doc.id}-${run}`) ?? []).map((l) => (JSON.parse(l) as { type: string }).type);
  const records = (run: string) => (sinks.store.get(`${stepfile.doc.id}-${run}`) ?? []).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { stepfile, registry, session, types, records, start: (inputs: unknown = {}) => registry.start(stepfile, inputs, session) };
}
