// The text face of an inspection: what an author reads first (the digest,
// the names to expose), with the full schemas left to structuredContent.
import type { ApiInspection } from "./inspect-api.js";

export function inspectionText(i: ApiInspection): string {
  if (i.kind === "mcp") {
    const lines = [`${i.url} is an MCP server.`];
    if (i.tools) {
      lines.push(`Tools (${i.tools.length}); expose a name, and pin its schema with { name, schema_sha256 }:`);
      for (const t of i.tools) {
        // Whether it only reads decides where it belongs: an agent step's tools, or a mechanical step after an approval (docs/checks.md, agent-write).
        const effect = t.read_only ? "marked read-only (readOnlyHint): expose it as { name, effect: read } so an agent step may call it and a failed call is retried" : "not marked read-only: it may change something, so call it from a mechanical step, not an agent step's tools";
        lines.push(`- ${t.name}: schema_sha256 ${t.schema_sha256}${t.description ? ` (${t.description})` : ""}`, `  ${effect}`, `  input schema: ${JSON.stringify(t.input_schema)}`);
      }
    }
    if (i.authorization) {
      const a = i.authorization;
      lines.push("It demands authorization, so its tools cannot be listed without a credential (an oauth2 or bearer credential whose hosts include its host).");
      if (a.authorization_server) lines.push(`Authorization server: ${a.authorization_server}`);
      if (a.token_endpoint) lines.push(`Token endpoint (the credential's token_url): ${a.token_endpoint}`);
      if (a.scopes_supported) lines.push(`Scopes it supports: ${a.scopes_supported.join(", ")}`);
      if (a.problem) lines.push(`Its authorization metadata could not be read: ${a.problem}`);
    }
    return lines.join("\n");
  }
  const lines = [
    `${i.url ?? "The inline document"} is an OpenAPI ${i.openapi} document${i.title ? ` (${i.title})` : ""}.`,
    i.url !== undefined
      ? `Pin it as: openapi: { server: <base URL>, url: ${i.url}, sha256: ${i.sha256} }`
      : `Use it as: openapi: { server: <base URL>, document: <this document> } (or host these exact bytes and pin url: <its URL>, sha256: ${i.sha256})`,
    `Servers: ${i.servers.map((s) => s.url).join(", ") || "none listed"}`,
    `Security schemes: ${Object.keys(i.security_schemes).join(", ") || "none"}`,
    `Operations (${i.operations.length}):`,
  ];
  for (const op of i.operations) {
    lines.push(`- ${op.operationId}: ${op.method} ${op.path}${op.problem ? ` (cannot be exposed: ${op.problem})` : ""}`);
    if (op.arguments) lines.push(`  arguments: ${JSON.stringify(op.arguments)}`);
    if (op.success) lines.push(`  success: ${op.success.status}${op.success.media_types.length ? ` ${op.success.media_types.join(", ")}` : ""}${op.success.schema !== undefined ? ` ${JSON.stringify(op.success.schema)}` : ""}`);
  }
  if (i.without_operation_id.length > 0) {
    lines.push("Without an operationId (Stepgate cannot expose these):");
    for (const op of i.without_operation_id) lines.push(`- ${op.method} ${op.path}${op.summary ? `: ${op.summary}` : ""}`);
  }
  return lines.join("\n");
}
