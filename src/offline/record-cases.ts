// `--record-cases <dir>`: every finished or failed run becomes a cases file
// that `stepgate --test` replays, so a good (or bad) live run can be kept as
// an offline test. Results are written whole; the ledger holds only hashes.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { idForFileName } from "../format/stepfile-id.js";
import { stringify } from "yaml";
import { fsProblem, writeWholeFile } from "../whole-file.js";
import type { RunContext } from "../engine/context.js";
import type { Attempt, AttemptCall } from "../engine/observer.js";

export type CaseObserverFactory = NonNullable<RunContext["observe"]>;

/**
 * @example
 * const ctx: RunContext = { ...base, observe: caseRecorder("cases/", (m) => process.stderr.write(m)) };
 */
export function caseRecorder(dir: string, onError: (message: string) => void = () => undefined): CaseObserverFactory {
  return function recordRun({ id, stepfile, inputs }) {
    const attempts: Attempt[] = [];
    return {
      attempt: (attempt) => void attempts.push(attempt),
      ended(state) {
        // An abandoned run has no outcome to replay; a run without attempts has nothing to test.
        if (state === "abandoned" || attempts.length === 0) return;
        const path = join(dir, `${idForFileName(stepfile.doc.id)}-${id}.cases.yaml`);
        const header = [
          `# A ${state} run of ${stepfile.doc.id} (${stepfile.identity}), recorded by stepgate --record-cases.`,
          `# Replay it offline: stepgate --test <${stepfile.doc.id} stepfile> ${path}`,
        ];
        const body = { cases: [{ name: `run ${id} (${state})`, inputs, steps: attempts.map(entryOf) }] };
        try {
          mkdirSync(dir, { recursive: true });
          // No anchors: a cases file is meant to be read and edited by people.
          // Whole or not at all: a full disk leaves no half file for --test to choke on.
          writeWholeFile(path, `${header.join("\n")}\n${stringify(body, { aliasDuplicateObjects: false, lineWidth: 0 })}`);
        } catch (error) {
          // Recording is a by-product; failing to write it must not touch the run.
          onError(`could not write ${path} (${fsProblem(error)}); the run itself is unaffected and its ledger is complete`);
        }
      },
    };
  };
}

function entryOf(attempt: Attempt): Record<string, unknown> {
  return {
    step: attempt.step,
    ...(attempt.calls.length > 0 ? { calls: attempt.calls.map(callOf) } : {}),
    output: attempt.output ?? null,
    expect: attempt.failures.length === 0 ? "pass" : { fail: attempt.failures.map((f) => f.gate) },
  };
}

/** `status` only for errors: it is what an `accept` list needs on replay, and noise otherwise. */
function callOf(call: AttemptCall): Record<string, unknown> {
  return {
    tool: call.tool,
    arguments: call.arguments,
    result: call.result ?? null,
    is_error: call.is_error,
    ...(call.is_error && call.status !== null ? { status: call.status } : {}),
  };
}
