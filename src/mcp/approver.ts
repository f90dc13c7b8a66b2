// Approve gates through MCP elicitation: the person sees the gate's message
// and the output, and approves or says why not. Only the 2025-11-25 push
// style is used; on a client that cannot be asked, runs of stepfiles with
// approve gates fail preflight (item `approval`).
import type { Server } from "@modelcontextprotocol/server";
import type { Approver } from "../engine/context.js";

export function elicitationApprover(server: Server, timeoutMs: number): Approver | undefined {
  const capabilities = server.getClientCapabilities();
  if (!capabilities?.elicitation) return undefined;
  if (server.getNegotiatedProtocolVersion() === "2026-07-28") return undefined;
  return {
    async approve({ step, gate, message, output }) {
      const answer = await server.elicitInput(
        {
          mode: "form",
          message: `${message}\n\nStep ${step} (gate ${gate}) submitted this output:\n${JSON.stringify(output, null, 2)}`,
          requestedSchema: {
            type: "object",
            properties: {
              approved: { type: "boolean", title: "Approve this output?" },
              reason: { type: "string", title: "Why not (shown to the agent)" },
            },
            required: ["approved"],
          },
        },
        // The person's wait is bounded like any pause in a run.
        { timeout: timeoutMs },
      );
      const content = (answer.content ?? {}) as { approved?: unknown; reason?: unknown };
      if (answer.action === "accept" && content.approved === true) return { approved: true };
      const reason = typeof content.reason === "string" && content.reason.trim() !== "" ? content.reason : answer.action === "cancel" ? "the person dismissed the request" : "the person did not approve";
      return { approved: false, reason };
    },
  };
}
