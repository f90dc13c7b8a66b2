// A JSON-RPC batch POSTed in a 2025 session that negotiated 2025-06-18 or
// later is refused here, before the SDK transport (which would answer each
// message: it takes batches for every 2025 revision). The rule and the
// error are src/jsonrpc/batches.ts's; the status is 400, as the Streamable
// HTTP transport asks of input the server cannot accept. (2026-07-28
// requests never get here: the SDK refuses their batches itself.)
import { batchesAllowed, batchRefusal } from "../jsonrpc/batches.js";

/** The refusal for `parsedBody` in a session of `protocolVersion`, or undefined to serve it. */
export function refuseBatch(parsedBody: unknown, protocolVersion: string | undefined): Response | undefined {
  if (!Array.isArray(parsedBody) || batchesAllowed(protocolVersion)) return undefined;
  return new Response(batchRefusal(protocolVersion, "request"), { status: 400, headers: { "content-type": "application/json" } });
}
