// An operation that changes something, in an agent step's tools: the agent
// chooses its arguments and how often it is called, before any gate of the
// step (an approve gate included) looks at anything. src/loader/agent-writes.ts
// says which operations are writes and how to gate one.
import { agentWrites } from "../agent-writes.js";
import type { Rule } from "./rule.js";

export const agentWrite: Rule = {
  id: "agent-write",
  severity: "warning",
  readsOperations: true,
  description: "An agent step's tools list an operation that changes something (POST, PUT, PATCH or DELETE, or an MCP tool its server does not mark readOnlyHint: true, without effect: read), which the agent may call with any arguments, any number of times, before any gate of the step; make the write a mechanical step after the approved step.",
  check: ({ doc, facts, reportAll }) => reportAll(agentWrites(doc, facts.operations, facts.mcpListings)),
};
