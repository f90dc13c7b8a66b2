// A write the agent chooses: an operation that changes something, listed in
// an agent step's `tools`. Stepgate makes the call, but the agent picks the
// arguments and how many times, and every call is made before any gate of
// the step looks at anything: an approve gate on the same step asks the
// person after the write has happened. Gated, the write is a mechanical
// step after the step a person approves, its arguments computed from the
// approved output.
//
// Which operations change something: of an OpenAPI document the stepfile
// holds (or pins, once fetched), a POST, PUT, PATCH or DELETE; of a remote
// MCP server, a tool its tools/list does not mark `readOnlyHint: true`
// (MCP's annotations: a tool is assumed to change things unless it says it
// only reads, https://modelcontextprotocol.io/specification/2025-11-25/server/tools).
// `effect: read` on the exposes entry says the operation changes nothing,
// whatever its method or listing. An MCP server is known only once listed
// (src/loader/findings.ts lists it for --check and stepgate_validate; when
// it cannot, rules/mcp-tools-unlisted.ts names the tools not judged).
import { exposedName, gateKind, type StepDef, type StepfileDocument } from "../format/types.js";
import type { RawIssue } from "./raw-issue.js";
import type { InlineOperation } from "./response-schemas.js";

/**
 * What an MCP server's tools/list says of one tool: its name, whether its
 * annotations say it only reads, and the outputSchema its successful
 * results' structuredContent conforms to, when it declares one
 * (src/loader/mcp-output-schemas.ts judges result paths by it).
 */
export interface ListedMcpTool {
  readonly name: string;
  readonly readOnly: boolean;
  readonly outputSchema?: Record<string, unknown>;
}

const READS: ReadonlySet<string> = new Set(["get", "head", "options", "trace"]);

/**
 * The agent-step tools of each MCP tool (by tool id) that only its server's
 * listing can judge: exposed by it, listed in an agent step's `tools`, and
 * not declared `effect: read`.
 */
export function mcpToolsToJudge(doc: StepfileDocument): Map<string, string[]> {
  const owner = new Map<string, string>();
  for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
    if (tool.mcp === undefined) continue;
    for (const exposed of tool.exposes ?? []) if (!(typeof exposed === "object" && exposed.effect === "read")) owner.set(exposedName(exposed), toolId);
  }
  const out = new Map<string, string[]>();
  for (const step of doc.steps) {
    if (step.do) continue;
    for (const name of step.tools ?? []) {
      const toolId = owner.get(name);
      if (toolId === undefined) continue;
      const names = out.get(toolId) ?? [];
      if (!names.includes(name)) names.push(name);
      out.set(toolId, names);
    }
  }
  return out;
}

/** Every agent-step tool that changes something, with how to gate it; `listed`: the tools/list of each MCP tool (by tool id) that could be read. */
export function agentWrites(doc: StepfileDocument, operations: ReadonlyMap<string, InlineOperation>, listed: ReadonlyMap<string, readonly ListedMcpTool[]>): RawIssue[] {
  const declaredReads = new Set<string>();
  const mcpOwner = new Map<string, string>();
  for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
    for (const exposed of tool.exposes ?? []) {
      if (typeof exposed === "object" && exposed.effect === "read") declaredReads.add(exposed.name);
      if (tool.mcp !== undefined) mcpOwner.set(exposedName(exposed), toolId);
    }
  }
  const issues: RawIssue[] = [];
  doc.steps.forEach((step, si) => {
    if (step.do) return;
    (step.tools ?? []).forEach((name, ti) => {
      if (declaredReads.has(name)) return;
      const write = writeOf(name, operations, mcpOwner, listed);
      if (write) issues.push({ path: ["steps", si, "tools", ti], message: writeMessage(step, name, write) });
    });
  });
  return issues;
}

/** What the operation is, said as a write, or undefined when it is a read or cannot be judged. */
function writeOf(
  name: string,
  operations: ReadonlyMap<string, InlineOperation>,
  mcpOwner: ReadonlyMap<string, string>,
  listed: ReadonlyMap<string, readonly ListedMcpTool[]>,
): { what: string; sentAs: string } | undefined {
  const op = operations.get(name);
  if (op) {
    if (READS.has(op.method)) return undefined;
    const method = op.method.toUpperCase();
    return { what: `${name} (${method} ${op.path}) changes something`, sentAs: ` (a search sent as ${method})` };
  }
  const toolId = mcpOwner.get(name);
  const found = toolId === undefined ? undefined : listed.get(toolId)?.find((t) => t.name === name);
  if (!found || found.readOnly) return undefined;
  return { what: `${name} (a tool of MCP server ${toolId}, whose tools/list does not mark it readOnlyHint: true) may change something`, sentAs: "" };
}

function writeMessage(step: StepDef, name: string, write: { what: string; sentAs: string }): string {
  const approvals = (step.gates ?? []).filter((g) => gateKind(g) === "approve").map((g) => g.id);
  const asked = approvals.length > 0 ? `, and ${approvals.length === 1 ? `the approve gate ${approvals[0]} asks` : `the approve gates ${approvals.join(", ")} ask`} the person only after those calls are made` : "";
  const after = approvals.length > 0 ? `a mechanical step after ${step.id}` : `a mechanical step after ${step.id} (with an approve gate on ${step.id} if a person must agree first)`;
  return (
    `${write.what}, and step ${step.id}'s agent may call it with any arguments, any number of times, before any gate of the step runs${asked}; ` +
    `to gate the write, take ${name} out of tools and call it from ${after}, with arguments computed from the approved output ` +
    `(do: { calls: [{ id: ..., operation: ${name}, arguments: { ...: { var: steps.${step.id}.<field> } } }] }); if it changes nothing${write.sentAs}, declare { name: ${name}, effect: read } in exposes`
  );
}
