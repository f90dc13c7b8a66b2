// stepgate_inspect_api against real peers on loopback: HTTP servers serving
// real documents from @readme/oas-examples, and SDK MCP servers, one open and
// one behind RFC 9728/8414 authorization metadata. Loopback is not public, so
// these tests replace the public-https check through the internal seam the
// CLI never sets; the real check is tested on its own below.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { inspectApi } from "../../src/authoring/inspect-api.js";
import type { OpenApiInspection } from "../../src/authoring/inspect-openapi.js";
import type { McpInspection } from "../../src/authoring/inspect-mcp.js";
import { inspectionText } from "../../src/authoring/inspection-text.js";
import { publicHttpsUrl, type PublicUrlCheck } from "../../src/authoring/public-url.js";
import { hashJson } from "../../src/format/identity.js";
import { startApiFixture } from "../support/api-fixture.js";
import { listenLoopback } from "../support/listen.js";
import { startMcpFixture } from "../support/mcp-fixture.js";

const examples = dirname(createRequire(import.meta.url).resolve("@readme/oas-examples/package.json"));
const requests = { userAgent: "stepgate/test", timeoutMs: 5_000, maxBytes: 5_000_000 };
/** Tests only: loopback stands in for the public internet. */
const loopbackIsPublic: PublicUrlCheck = (url) => (url.hostname === "127.0.0.1" ? undefined : "not the test loopback");

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** Serves files (path -> bytes) and records which paths were asked for, with their headers. */
async function serveFiles(files: Record<string, { body: Buffer | string; type: string }>) {
  const seen: Array<{ path: string; headers: Record<string, unknown> }> = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? "", headers: req.headers });
    const file = files[req.url ?? ""];
    if (!file) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    res.writeHead(200, { "content-type": file.type });
    res.end(file.body);
  });
  const listening = await listenLoopback(server);
  closers.push(listening.close);
  return { origin: listening.origin, seen };
}

const example = (file: string) => readFileSync(join(examples, file));

describe("stepgate_inspect_api on OpenAPI documents", () => {
  it("gives the digest of the fetched bytes, servers, security schemes, operations with arguments and success responses", async () => {
    const bytes = example("3.0/json/petstore.json");
    const { origin, seen } = await serveFiles({ "/openapi.json": { body: bytes, type: "application/json" } });
    const result = (await inspectApi(`${origin}/openapi.json`, requests, loopbackIsPublic)) as OpenApiInspection;
    expect(result.kind).toBe("openapi");
    expect(result.sha256).toBe(`sha256:${createHash("sha256").update(bytes).digest("hex")}`);
    expect(result.servers.map((s) => s.url)).toEqual(["http://petstore.swagger.io/v2"]);
    expect(Object.keys(result.security_schemes).sort()).toEqual(["api_key", "petstore_auth"]);
    const find = result.operations.find((o) => o.operationId === "findPetsByStatus")!;
    expect(find).toMatchObject({ method: "GET", path: "/pet/findByStatus", success: { status: "200" } });
    expect(find.arguments).toMatchObject({ type: "object", properties: { status: { type: "array" } }, required: ["status"] });
    expect(result.operations.map((o) => o.operationId)).toContain("addPet");
    // No credential and no cookie ever go with an inspection.
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers["user-agent"]).toBe("stepgate/test");
  });

  it("reads YAML documents too and lists operations without an operationId by method and path", async () => {
    const { origin } = await serveFiles({
      "/spec.yaml": { body: example("3.0/yaml/parameters-common.yaml"), type: "application/yaml" },
      "/mixed.json": { body: example("3.0/json/discriminators.json"), type: "application/json" },
    });
    const common = (await inspectApi(`${origin}/spec.yaml`, requests, loopbackIsPublic)) as OpenApiInspection;
    expect(common.operations).toEqual([]);
    expect(common.without_operation_id.length).toBe(5);
    expect(common.without_operation_id[0]).toMatchObject({ method: expect.any(String), path: expect.stringMatching(/^\//) });
    const mixed = (await inspectApi(`${origin}/mixed.json`, requests, loopbackIsPublic)) as OpenApiInspection;
    expect(mixed.operations.length).toBe(4);
    expect(mixed.without_operation_id.length).toBe(6);
  });

  it("inlines circular documents", async () => {
    const { origin } = await serveFiles({ "/c.json": { body: example("3.1/json/petstore.json"), type: "application/json" } });
    const result = (await inspectApi(`${origin}/c.json`, requests, loopbackIsPublic)) as OpenApiInspection;
    expect(result.openapi).toMatch(/^3\.1/);
    expect(result.operations.length).toBeGreaterThan(0);
  });

  it("refuses a Swagger 2.0 document, a $ref it cannot inline, and a document that does not parse, as ApiDocumentInvalid", async () => {
    const petstore = JSON.parse(example("3.0/json/petstore.json").toString("utf8"));
    petstore.paths["/pet"].post.requestBody = { $ref: "#/components/requestBodies/Missing" };
    const external = JSON.parse(example("3.0/json/petstore.json").toString("utf8"));
    external.components.schemas.Pet = { $ref: "https://elsewhere.example/pet.json" };
    const { origin } = await serveFiles({
      "/swagger.json": { body: example("2.0/json/petstore.json"), type: "application/json" },
      "/dangling.json": { body: JSON.stringify(petstore), type: "application/json" },
      "/external.json": { body: JSON.stringify(external), type: "application/json" },
      "/broken.yaml": { body: "openapi: 3.0.0\npaths: {\n", type: "application/yaml" },
    });
    await expect(inspectApi(`${origin}/swagger.json`, requests, loopbackIsPublic)).rejects.toMatchObject({ name: "ApiDocumentInvalid", message: expect.stringContaining("Swagger 2.0") });
    await expect(inspectApi(`${origin}/dangling.json`, requests, loopbackIsPublic)).rejects.toMatchObject({ name: "ApiDocumentInvalid", message: expect.stringContaining("points at nothing") });
    await expect(inspectApi(`${origin}/external.json`, requests, loopbackIsPublic)).rejects.toMatchObject({ name: "ApiDocumentInvalid", message: expect.stringContaining("cannot be inlined") });
    await expect(inspectApi(`${origin}/broken.yaml`, requests, loopbackIsPublic)).rejects.toMatchObject({ name: "ApiDocumentInvalid", message: expect.stringContaining("neither an OpenAPI document") });
  });

  it("does not follow a redirect to another host", async () => {
    const target = await serveFiles({ "/openapi.json": { body: example("3.0/json/petstore.json"), type: "application/json" } });
    const api = await startApiFixture([{ method: "GET", path: "/moved", answers: [{ status: 302, headers: { location: `${target.origin.replace("127.0.0.1", "localhost")}/openapi.json` } }] }]);
    closers.push(api.close);
    await expect(inspectApi(`${api.origin}/moved`, requests, loopbackIsPublic)).rejects.toMatchObject({ name: "EgressDenied" });
    expect(target.seen).toEqual([]);
  });
});

describe("stepgate_inspect_api on MCP servers", () => {
  const tools = [
    { name: "lookup", description: "Look something up.", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, text: "x", annotations: { readOnlyHint: true } },
    { name: "ping", inputSchema: { type: "object" }, text: "pong" },
  ];

  it("lists an open server's tools with the schema_sha256 preflight checks", async () => {
    const mcp = await startMcpFixture({ tools });
    closers.push(mcp.close);
    const result = (await inspectApi(`${mcp.origin}/mcp`, requests, loopbackIsPublic)) as McpInspection;
    expect(result.kind).toBe("mcp");
    expect(result.tools!.map((t) => [t.name, t.schema_sha256])).toEqual(tools.map((t) => [t.name, hashJson(t.inputSchema)]));
    expect(result.authorization).toBeUndefined();
    // What the server says of each tool decides where it belongs (agent-write): only readOnlyHint: true is a read.
    expect(result.tools!.map((t) => [t.name, t.read_only])).toEqual([
      ["lookup", true],
      ["ping", false],
    ]);
    const text = inspectionText(result);
    expect(text).toContain("- lookup: schema_sha256");
    expect(text).toMatch(/lookup: [^\n]*\n {2}marked read-only \(readOnlyHint\): expose it as \{ name, effect: read \}/);
    expect(text).toMatch(/ping: [^\n]*\n {2}not marked read-only: it may change something, so call it from a mechanical step/);
  });

  it("gives the token endpoint the authorization server advertises when the server demands authorization", async () => {
    // The fixture answers with this object, filled in once its origin is known.
    const asMetadata: Record<string, unknown> = { response_types_supported: ["code"], scopes_supported: ["read"] };
    const as = await startApiFixture([{ method: "GET", path: "/.well-known/oauth-authorization-server", answers: [{ json: asMetadata }] }]);
    closers.push(as.close);
    Object.assign(asMetadata, { issuer: as.origin, token_endpoint: `${as.origin}/token`, authorization_endpoint: `${as.origin}/authorize` });
    const resourceMetadata: Record<string, unknown> = {};
    const mcp = await startMcpFixture({ token: "secret", tools, resourceMetadata });
    closers.push(mcp.close);
    Object.assign(resourceMetadata, { resource: `${mcp.origin}/mcp`, authorization_servers: [as.origin] });

    const result = (await inspectApi(`${mcp.origin}/mcp`, requests, loopbackIsPublic)) as McpInspection;
    expect(result.tools).toBeNull();
    expect(result.authorization).toEqual({
      resource_metadata: `${mcp.origin}/.well-known/oauth-protected-resource/mcp`,
      authorization_server: as.origin,
      token_endpoint: `${as.origin}/token`,
      scopes_supported: ["read"],
    });
    expect(mcp.received.every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it("follows the resource_metadata its WWW-Authenticate names", async () => {
    const metadataHost = await startApiFixture([{ method: "GET", path: "/prm", answers: [{ json: {} }] }]);
    closers.push(metadataHost.close);
    const mcp = await startMcpFixture({ token: "secret", tools, challenge: `Bearer resource_metadata="${metadataHost.origin}/prm"` });
    closers.push(mcp.close);
    const result = (await inspectApi(`${mcp.origin}/mcp`, requests, loopbackIsPublic)) as McpInspection;
    expect(result.authorization?.resource_metadata).toBe(`${metadataHost.origin}/prm`);
    // The metadata there names no authorization server: said, not thrown.
    expect(result.authorization?.problem).toBeTruthy();
  });

  it("says what a URL that is neither is not", async () => {
    const { origin } = await serveFiles({ "/page": { body: "<html>hello</html>", type: "text/html" } });
    await expect(inspectApi(`${origin}/page`, requests, loopbackIsPublic)).rejects.toMatchObject({ name: "ApiDocumentInvalid", message: expect.stringContaining("nor an MCP server") });
  });
});

describe("stepgate_inspect_api refuses URLs that are not public https (UrlNotPublic), before any request", () => {
  it.each([
    ["http://api.example.com/openapi.json", "https"],
    ["https://127.0.0.1/openapi.json", "loopback"],
    ["https://localhost/openapi.json", "localhost"],
    ["https://10.0.0.8/openapi.json", "private"],
    ["https://192.168.1.1/x", "private"],
    ["https://172.20.0.1/x", "private"],
    ["https://169.254.169.254/latest/meta-data", "link-local"],
    ["https://[::1]/x", "loopback"],
    ["https://[fd12::1]/x", "private"],
    ["https://[fe80::1]/x", "link-local"],
    ["https://[::ffff:127.0.0.1]/x", "loopback"],
    ["https://intranet/x", "without a dot"],
    ["not a url", "absolute URL"],
  ])("%s", async (url, why) => {
    await expect(inspectApi(url, requests, publicHttpsUrl)).rejects.toMatchObject({ name: "UrlNotPublic", message: expect.stringContaining(why) });
  });
});

describe("stepgate_inspect_api against a server that never answers", () => {
  it("ends within the load bound, min(--request-timeout-ms, 15 s) in all: one attempt, not the seed's five of a whole timeout each", async () => {
    const seen: string[] = [];
    const server = createServer((req) => void seen.push(req.url ?? ""));
    const listening = await listenLoopback(server);
    closers.push(listening.close);
    // With a 1 s request timeout the bound is 1 s, which leaves no time for a retry after the first attempt times out.
    await expect(inspectApi(`${listening.origin}/openapi.json`, { ...requests, timeoutMs: 1_000 }, loopbackIsPublic)).rejects.toThrow(/no complete response within 1000 ms; not enough time is left of the 1 s this fetch may take in all to try again/);
    expect(seen).toEqual(["/openapi.json"]);
  });
});
