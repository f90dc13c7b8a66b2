// What a remote MCP tool's calls return, as the path walk reads an OpenAPI
// operation's responses (src/loader/response-schemas.ts), from the
// outputSchema its server's tools/list declares (MCP 2025-06-18 on). Known
// only once a check listed the server (src/loader/findings.ts); a load lists
// nothing, and a tool that declares no outputSchema is left out, so a path
// into it is never judged, as a response with no schema is not.
//
// What a call's result holds (src/tools/mcp-tool.ts): the structuredContent
// the tool returned, else its text parsed as JSON. A result that is not an
// error must carry structuredContent that conforms to the outputSchema, or
// the SDK's client refuses the call (it never becomes a calls record or a
// response); an error result (isError) is held to nothing, so it may be
// anything. Hence `success` (what `results`, `responses.<id>`, `select` and
// a calls filter on !is_error read) is the outputSchema, and `any` (every
// calls record, errors included) is unknown. A mechanical call's `accept`
// lists HTTP statuses, which an MCP result has none of: an MCP error always
// fails the call, so accepting anything still leaves only successes.
import { isObject } from "../format/json-pointer.js";
import { exposedName, type StepfileDocument } from "../format/types.js";
import type { ListedMcpTool } from "./agent-writes.js";
import type { OperationResponses } from "./response-schemas.js";

/** Each exposed MCP tool whose listed server declares its outputSchema, by name; `listings`: each listed MCP tool's tools/list, by tool id. */
export function mcpOutputSchemas(doc: StepfileDocument, listings: ReadonlyMap<string, readonly ListedMcpTool[]>): Map<string, OperationResponses> {
  const out = new Map<string, OperationResponses>();
  for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
    const listed = listings.get(toolId);
    if (tool.mcp === undefined || !listed) continue;
    for (const exposed of tool.exposes ?? []) {
      const name = exposedName(exposed);
      const schema = listed.find((t) => t.name === name)?.outputSchema;
      if (!isObject(schema)) continue;
      // An outputSchema is a document of its own: its $refs point into it.
      const success = [{ schema, root: schema }];
      out.set(name, { success, accepting: () => success, what: `the outputSchema of ${name} (tools/list of ${toolId})` });
    }
  }
  return out;
}
