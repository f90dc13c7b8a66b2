// JSON-RPC batches (an array of messages in one line or one POST), by the
// protocol revision a session speaks. MCP 2025-03-26 added them ("MUST
// support receiving JSON-RPC batches", basic/index); 2025-06-18 removed them
// (its changelog: "Remove support for JSON-RPC batching", PR #416), and its
// schema has no batch type, so a batch there is not a valid Request object:
// JSON-RPC 2.0 section 5.1 answers that with -32600 Invalid Request, and
// with `id: null` since no single id can be told (section 5). 2026-07-28
// has none either. Shared by stdio (src/stdio/batches.ts) and HTTP
// (src/http/batch-refusal.ts), so both transports draw the line at the same
// revision.

/** The last revision with batches. Revisions are dates, so they compare as strings. */
const LAST_REVISION_WITH_BATCHES = "2025-03-26";

/** Whether a session of `protocolVersion` takes batches; unknown (no session yet) does not. */
export function batchesAllowed(protocolVersion: string | undefined): boolean {
  return protocolVersion !== undefined && protocolVersion <= LAST_REVISION_WITH_BATCHES;
}

/** The answer to a batch where none is allowed, with `id: null` (one line of JSON, without the newline). */
export function batchRefusal(protocolVersion: string | undefined, unit: "line" | "request"): string {
  const since = protocolVersion === undefined ? "before the session is initialized" : `on protocol revision ${protocolVersion}`;
  const message = `Invalid Request: JSON-RPC batches are not accepted ${since} (MCP removed them in 2025-06-18); send one message per ${unit}`;
  return JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message } });
}
