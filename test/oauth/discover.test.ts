// The MCP authorization spec's discovery order, against a loopback server
// that answers at one candidate URL only: which URLs are tried, in what
// order, and that the metadata found must name the expected issuer.
import { afterEach, describe, expect, it } from "vitest";
import { readAuthorizationMetadata, readServerMetadata, serverMetadataUrls } from "../../src/oauth/discover.js";
import { AuthorizationFailed } from "../../src/errors.js";
import { startLoopback, testPolicy, type Loopback } from "../egress/loopback.js";

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Serves `body(origin)` as JSON at `path`, 404 elsewhere. */
async function serving(documents: Record<string, (origin: string) => unknown>): Promise<Loopback> {
  server = await startLoopback((req, res, self) => {
    const document = documents[req.url ?? ""];
    if (!document) return void res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(document(self.origin)));
  });
  return server;
}

describe("authorization server discovery", () => {
  it("lists RFC 8414 with path insertion, OIDC with path insertion, then OIDC appended", () => {
    expect(serverMetadataUrls(new URL("https://idp.example/tenant/a")).map((u) => u.pathname)).toEqual([
      "/.well-known/oauth-authorization-server/tenant/a",
      "/.well-known/openid-configuration/tenant/a",
      "/tenant/a/.well-known/openid-configuration",
    ]);
    // Without a path the two OIDC forms are one URL.
    expect(serverMetadataUrls(new URL("https://idp.example")).map((u) => u.pathname)).toEqual(["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]);
  });

  it.each([
    ["/.well-known/oauth-authorization-server/oidc", 1],
    ["/.well-known/openid-configuration/oidc", 2],
    ["/oidc/.well-known/openid-configuration", 3],
  ])("finds metadata served only at %s", async (path, tries) => {
    const s = await serving({ [path]: (origin) => ({ issuer: `${origin}/oidc`, token_endpoint: `${origin}/oidc/token` }) });
    const metadata = await readServerMetadata(new URL(`${s.origin}/oidc`), testPolicy([]));
    expect(metadata.token_endpoint).toBe(`${s.origin}/oidc/token`);
    expect(s.received.map((r) => r.url)).toEqual(serverMetadataUrls(new URL(`${s.origin}/oidc`)).slice(0, tries).map((u) => u.pathname));
  });

  it("refuses metadata that names another issuer", async () => {
    const s = await serving({ "/oidc/.well-known/openid-configuration": () => ({ issuer: "https://elsewhere.example/oidc", token_endpoint: "https://elsewhere.example/oidc/token" }) });
    await expect(readServerMetadata(new URL(`${s.origin}/oidc`), testPolicy([]))).rejects.toThrow(/issuer/);
  });

  it("says which URLs answered what when none has metadata", async () => {
    const s = await serving({});
    const tried: string[] = [];
    await expect(readServerMetadata(new URL(`${s.origin}/oidc`), testPolicy([]), tried)).rejects.toThrow("no metadata found");
    expect(tried).toEqual([`${s.origin}/.well-known/oauth-authorization-server/oidc answered 404`, `${s.origin}/.well-known/openid-configuration/oidc answered 404`, `${s.origin}/oidc/.well-known/openid-configuration answered 404`]);
    // Through the whole discovery, the message names every URL and its answer, the probe's first.
    const read = readAuthorizationMetadata(`${s.origin}/mcp`, `${s.origin}/token`, testPolicy([]));
    await expect(read).rejects.toThrow(
      `authorization failed: could not read the protected resource metadata of ${s.origin}/mcp: no metadata found; tried POST ${s.origin}/mcp answered 404, ${s.origin}/.well-known/oauth-protected-resource/mcp answered 404, ${s.origin}/.well-known/oauth-protected-resource answered 404`,
    );
  });
});

describe("protected resource discovery", () => {
  it("falls back to the root metadata URL when the path-inserted one is absent", async () => {
    const s = await serving({
      "/.well-known/oauth-protected-resource": (origin) => ({ resource: `${origin}/mcp`, authorization_servers: [origin] }),
      "/.well-known/oauth-authorization-server": (origin) => ({ issuer: origin, token_endpoint: `${origin}/token` }),
    });
    const metadata = await readAuthorizationMetadata(`${s.origin}/mcp`, `${s.origin}/token`, testPolicy([]));
    expect(metadata.server?.token_endpoint).toBe(`${s.origin}/token`);
    // The unauthenticated probe first (its 404 names no resource_metadata), then the well-known URLs in order.
    expect(s.received.map((r) => `${r.method} ${r.url}`).slice(0, 3)).toEqual(["POST /mcp", "GET /.well-known/oauth-protected-resource/mcp", "GET /.well-known/oauth-protected-resource"]);
  });

  it("accepts root metadata naming the server's origin, and refuses one naming another resource", async () => {
    const s = await serving({
      "/.well-known/oauth-protected-resource": () => ({ resource: "https://other.example/mcp", authorization_servers: ["https://other.example"] }),
    });
    const read = readAuthorizationMetadata(`${s.origin}/mcp`, `${s.origin}/token`, testPolicy([]));
    await expect(read).rejects.toBeInstanceOf(AuthorizationFailed);
    await expect(read).rejects.toThrow(/resource/);
  });

  it("reads the metadata at the resource_metadata URL of the 401's WWW-Authenticate first (MCP 2025-11-25)", async () => {
    server = await startLoopback((req, res, self) => {
      if (req.method === "POST" && req.url === "/mcp") return void res.writeHead(401, { "www-authenticate": `Bearer error="invalid_token", resource_metadata="${self.origin}/meta/prm"` }).end();
      if (req.url === "/meta/prm") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ resource: `${self.origin}/mcp`, authorization_servers: [self.origin] }));
      if (req.url === "/.well-known/oauth-authorization-server") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ issuer: self.origin, token_endpoint: `${self.origin}/token` }));
      res.writeHead(404).end();
    });
    const metadata = await readAuthorizationMetadata(`${server.origin}/mcp`, `${server.origin}/token`, testPolicy([]));
    expect(metadata.server?.token_endpoint).toBe(`${server.origin}/token`);
    expect(server.received.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /mcp", "GET /meta/prm", "GET /.well-known/oauth-authorization-server"]);
    // The probe carries no credential.
    expect(server.received[0]!.headers.authorization).toBeUndefined();
  });

  it("does not follow a resource_metadata URL on another host, and says so with every URL tried", async () => {
    server = await startLoopback((req, res) => {
      if (req.method === "POST") return void res.writeHead(401, { "www-authenticate": 'Bearer resource_metadata="http://127.0.0.2:9/prm"' }).end();
      res.writeHead(404).end();
    });
    const read = readAuthorizationMetadata(`${server.origin}/mcp`, `${server.origin}/token`, testPolicy([]));
    await expect(read).rejects.toThrow(`tried POST ${server.origin}/mcp answered 401 naming resource_metadata http://127.0.0.2:9/prm, http://127.0.0.2:9/prm not read: Stepgate reads a server's metadata only on its own host, ${server.origin}/.well-known/oauth-protected-resource/mcp answered 404`);
    expect(server.received.map((r) => r.url)).not.toContain("/prm");
  });
});
