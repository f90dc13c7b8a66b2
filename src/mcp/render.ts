// Engine replies as MCP tool results: the same content as text and as
// structuredContent `{ run, state, ... }`, because some clients show only
// one of the two. A reply that ends a run starts its text with the error type.
import type { Reply } from "../engine/replies.js";
import { argumentLimits } from "../loader/value-checks.js";

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

export function renderReply(reply: Reply): ToolResult {
  switch (reply.kind) {
    case "step": {
      const { step } = reply;
      const structured = {
        run: reply.run,
        state: reply.state,
        step: {
          step: step.step,
          instructions: step.instructions,
          operations: step.operations.map((o) => ({ name: o.name, ...(o.description ? { description: o.description } : {}), arguments: o.inputSchema })),
          output_schema: step.outputSchema,
          attempts: step.attempts,
          attempts_left: step.attemptsLeft,
        },
        completed: reply.completed,
      };
      const lines = [`Run ${reply.run}, step ${step.step} (attempt ${step.attempts - step.attemptsLeft + 1} of ${step.attempts}).`];
      if (reply.completed.length > 0) lines.push(`Stepgate did these steps itself: ${reply.completed.join(", ")}.`);
      lines.push("", "Instructions:", step.instructions, "");
      if (step.operations.length === 0) lines.push("This step calls no operations.");
      else {
        lines.push(`Operations you may call with stepgate_call (run "${reply.run}"):`);
        for (const o of step.operations) {
          lines.push(`- ${o.name}${o.description ? `: ${o.description}` : ""}`, `  arguments: ${JSON.stringify(o.inputSchema)}`);
          // The schema's limits in words: a call over one is refused (CallArgumentsInvalid) and counts against the step's calls.
          const limits = argumentLimits(o.inputSchema);
          if (limits.length > 0) lines.push(`  documented limits: ${limits.join("; ")}`);
        }
      }
      lines.push("", `When done, call stepgate_submit with run "${reply.run}" and an output matching this JSON Schema:`, JSON.stringify(step.outputSchema));
      return result(lines.join("\n"), structured);
    }
    case "retry": {
      const structured = { run: reply.run, state: reply.state, step: { step: reply.step }, failures: reply.failures, attempts_left: reply.attemptsLeft };
      const lines = [
        `Step ${reply.step} did not pass. Fix every problem below and submit again (${reply.attemptsLeft} ${reply.attemptsLeft === 1 ? "attempt" : "attempts"} left):`,
        ...reply.failures.map((f) => `- ${f.gate}: ${f.diagnosis}`),
      ];
      return result(lines.join("\n"), structured);
    }
    case "call":
      return result(reply.text, { run: reply.run, state: reply.state, operation: reply.operation, is_error: reply.isError, result: reply.text }, reply.isError);
    case "finished": {
      const structured = { run: reply.run, state: reply.state, identity: reply.identity, outputs: reply.outputs, completed: reply.completed };
      // `completed` is in every finished reply; an empty list would otherwise read as "nothing was completed", so the text says what it means.
      const done =
        reply.completed.length > 0
          ? `Stepgate did these steps itself: ${reply.completed.join(", ")}.\n`
          : "Stepgate ran no step itself since your last call.\n";
      return result(`Run ${reply.run} finished.\n${done}${JSON.stringify({ identity: reply.identity, outputs: reply.outputs }, null, 2)}`, structured);
    }
    case "waiting":
      // Refused, yet the run goes on: the waiting output is untouched.
      return result(reply.text, { run: reply.run, state: reply.state, step: { step: reply.step }, waiting_for: "approval", message: reply.text }, true);
    case "approval": {
      // The MCP factory turns this into an input-required result; it reaches
      // here only if no person can be asked that way, so say what waits.
      const structured = { run: reply.run, state: reply.state, step: { step: reply.step }, waiting_for: "approval", gates: reply.requests.map((r) => r.gate) };
      return result(`Step ${reply.step}'s output is waiting for a person's approval (${reply.requests.map((r) => r.gate).join(", ")}).`, structured, true);
    }
    case "failed": {
      const { error } = reply;
      const structured = { run: reply.run, state: reply.state, error: error.name, message: error.message, details: error.details };
      return result(`${error.name}: ${error.message}`, structured, true);
    }
  }
}

function result(text: string, structuredContent: Record<string, unknown>, isError = false): ToolResult {
  return { content: [{ type: "text", text }], structuredContent, ...(isError ? { isError: true } : {}) };
}
