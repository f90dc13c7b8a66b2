// stepgate_inspect_api: public https URLs only, never with a credential.
// What the URL is, is decided by trying: a JSON or YAML document with
// `openapi` (or `swagger`, to say it is unsupported) is an OpenAPI document;
// anything else is tried as an MCP server over Streamable HTTP.
import { ApiDocumentInvalid, UrlNotPublic } from "../errors.js";
import { parseDocument } from "../tools/openapi/index.js";
import { inspectMcp, type McpInspection } from "./inspect-mcp.js";
import { inspectOpenApi, type OpenApiInspection } from "./inspect-openapi.js";
import { inspectFetch } from "./inspect-policy.js";
import type { AuthoringOptions } from "./options.js";
import { urlProblem, type PublicUrlCheck } from "./public-url.js";

export type ApiInspection = OpenApiInspection | McpInspection;

// An MCP endpoint asked for a document must not open an event stream.
const ACCEPT = "application/json, application/yaml;q=0.9, text/yaml;q=0.9, */*;q=0.1";

export async function inspectApi(raw: string, requests: AuthoringOptions["requests"], check: PublicUrlCheck): Promise<ApiInspection> {
  const problem = urlProblem(raw, check);
  if (problem) throw new UrlNotPublic(raw, problem);
  const url = new URL(raw);
  const response = await inspectFetch(requests, [url.host], "inspect document")(url, { headers: { accept: ACCEPT } });
  let notDocument: string;
  if (response.ok && !(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    const document = asApiDocument(bytes, url.href);
    if (typeof document !== "string") return inspectOpenApi(url.href, bytes, document);
    notDocument = document;
  } else {
    await response.body?.cancel().catch(() => undefined);
    notDocument = `it answered HTTP ${response.status}${response.ok ? " with an event stream" : ""}`;
  }
  try {
    return await inspectMcp(url, requests, check);
  } catch (error) {
    throw new ApiDocumentInvalid(`${url.href} is neither an OpenAPI document (${notDocument}) nor an MCP server (${(error as Error).message})`, { url: url.href });
  }
}

/** The parsed document when it claims to be OpenAPI (or Swagger); otherwise why it is not one. */
function asApiDocument(bytes: Uint8Array, url: string): Record<string, unknown> | string {
  try {
    const document = parseDocument(bytes, url);
    return "openapi" in document || "swagger" in document ? document : "it has no openapi field";
  } catch (error) {
    return (error as Error).message;
  }
}
