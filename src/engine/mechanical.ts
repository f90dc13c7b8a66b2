// A mechanical step (`do`): Stepgate makes its calls in order, computes the
// output from the templates, and never shows the step to the client.
import { CallArgumentsInvalid, ToolCallFailed } from "../errors.js";
import { asJson } from "../expr/index.js";
import type { CompiledCall, CompiledStep } from "../loader/compile.js";
import { attemptsMade } from "../attempts.js";
import type { CallOutcome } from "./toolbox.js";

export interface MechanicalHost {
  inputs: unknown;
  steps: Record<string, unknown>;
  /** Make one call (counted against the step's limit, recorded in the ledger). */
  call(operation: string, args: Record<string, unknown>, callId: string): Promise<CallOutcome>;
  checkArguments(operation: string, args: unknown): string[];
  /** About to make call `call`: the `n`th of `total` (of its `each`, or 1 of 1), for progress reports. */
  calling?(call: string, operation: string, n: number, total: number): void;
  computed(output: unknown): void;
}

export async function runMechanicalStep(step: CompiledStep, host: MechanicalHost): Promise<unknown> {
  const responses: Record<string, unknown> = {};
  const data = () => ({ inputs: host.inputs, steps: host.steps, responses });
  for (const call of step.calls) {
    if (call.each) {
      const items = call.each(data());
      if (!Array.isArray(items)) {
        throw new CallArgumentsInvalid(step.def.id, label(call), `each must give an array, not ${describe(items)}`);
      }
      const results: unknown[] = [];
      for (const [i, item] of items.entries()) {
        host.calling?.(call.id, call.operation, i + 1, items.length);
        results.push(await makeCall(step, call, { ...data(), item }, host));
      }
      responses[call.id] = results;
    } else {
      host.calling?.(call.id, call.operation, 1, 1);
      responses[call.id] = await makeCall(step, call, data(), host);
    }
  }
  const output = asJson(step.output!(data()));
  host.computed(output);
  return output;
}

async function makeCall(step: CompiledStep, call: CompiledCall, data: Record<string, unknown>, host: MechanicalHost): Promise<unknown> {
  const args = call.arguments(data);
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new CallArgumentsInvalid(step.def.id, label(call), `arguments must be an object, not ${describe(args)}`);
  }
  const problems = host.checkArguments(call.operation, args);
  if (problems.length > 0) throw new CallArgumentsInvalid(step.def.id, label(call), problems.join("; "));
  const outcome = await host.call(call.operation, args as Record<string, unknown>, call.id).catch((error: unknown) => {
    // No usable answer (a network error or missed deadline after the retries, an MCP client's failure): the tool's
    // ToolCallFailed names only the operation, so the run's failure names the step and call, as an error answer's does.
    if (error instanceof ToolCallFailed) throw new ToolCallFailed(`step ${step.def.id}, call ${label(call)}`, error.status, error.body.slice(0, 2000), typeof error.details.reason === "string" ? error.details.reason : undefined);
    throw error;
  });
  if (outcome.isError && !(outcome.status !== null && call.accept.includes(outcome.status))) {
    // An HTTP error's text already reads `HTTP <status>: <body>`; the error names the status itself.
    const body = outcome.status === null ? outcome.text : outcome.text.replace(/^HTTP \d{3}(: )?/, "");
    // Said as an agent's failed call and a pinned document's failed fetch say it (src/attempts.ts), so a person sees the retries were made.
    throw new ToolCallFailed(`step ${step.def.id}, call ${label(call)}`, outcome.status, body.slice(0, 2000), attemptsMade(outcome.attempts));
  }
  return outcome.result;
}

function label(call: CompiledCall): string {
  return `${call.id} (${call.operation})`;
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}
