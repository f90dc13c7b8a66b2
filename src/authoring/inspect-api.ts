// stepgate_inspect_api: public https URLs only (or hosts the operator granted
// with --draft-host), never with a credential; or an OpenAPI document given
// inline as text, which needs no request at all. What a URL is, is decided by
// trying: a JSON or YAML document with `openapi` (or `swagger`, to say it is
// unsupported) is an OpenAPI document; anything else is tried as an MCP
// server over Streamable HTTP.
import { ApiDocumentInvalid, UrlNotPublic } from "../errors.js";
import { parseDocument } from "../tools/openapi/index.js";
import { WAY_FORWARD } from "./draft-hosts.js";
import { inspectMcp, type McpInspection } from "./inspect-mcp.js";
import { inspectOpenApi, type OpenApiInspection } from "./inspect-openapi.js";
import { inspectFetch } from "./inspect-policy.js";
import type { AuthoringOptions } from "./options.js";
import { urlProblem, type PublicUrlCheck } from "./public-url.js";

export type ApiInspection = OpenApiInspection | McpInspection;

// An MCP endpoint asked for a document must not open an event stream.
const ACCEPT = "application/json, application/yaml;q=0.9, text/yaml;q=0.9, */*;q=0.1";

export async function inspectApi(raw: string, requests: AuthoringOptions["requests"], check: PublicUrlCheck): Promise<ApiInspection> {
  // A pasted document is not a URL to judge; say which argument takes it.
  if (/[\n{]/.test(raw) || /^\s*(openapi|swagger)\s*:/.test(raw)) throw new UrlNotPublic(raw, "it looks like a document, not a URL", WAY_FORWARD.inspect);
  const problem = urlProblem(raw, check);
  if (problem) throw new UrlNotPublic(raw, problem, WAY_FORWARD.inspect);
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

/** An OpenAPI document given as text (JSON or YAML), at most maxBytes long: the same listing as a fetched one. */
export async function inspectApiDocument(text: string, maxBytes: number): Promise<OpenApiInspection> {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > maxBytes) {
    throw new ApiDocumentInvalid(`the document is ${bytes.length} bytes, more than the ${maxBytes} Stepgate reads (--response-bytes); host it and give its url instead`, { bytes: bytes.length, limit: maxBytes });
  }
  const document = asApiDocument(bytes, "the inline document");
  if (typeof document === "string") throw new ApiDocumentInvalid(`the inline document is not an OpenAPI document: ${document}`);
  return inspectOpenApi(undefined, bytes, document);
}
