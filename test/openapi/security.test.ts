import { describe, expect, it } from "vitest";
import { doc, operation, type Doc } from "./helpers.js";

const schemes = {
  header: { type: "apiKey", in: "header", name: "X-Api-Key" },
  query: { type: "apiKey", in: "query", name: "api_key" },
  cookie: { type: "apiKey", in: "cookie", name: "session" },
  bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
  Bearer: { type: "http", scheme: "Bearer" },
  basic: { type: "http", scheme: "basic" },
  oauth: { type: "oauth2", flows: {} },
  oidc: { type: "openIdConnect", openIdConnectUrl: "https://example.com/.well-known/openid-configuration" },
  digest: { type: "http", scheme: "digest" },
  tls: { type: "mutualTLS" },
};

const secured = (opSecurity: unknown, docSecurity?: unknown): Doc =>
  doc(
    { "/a": { get: { operationId: "a", ...(opSecurity === undefined ? {} : { security: opSecurity }) } } },
    { components: { securitySchemes: schemes }, ...(docSecurity === undefined ? {} : { security: docSecurity }) },
  );

const placements = async (opSecurity: unknown, docSecurity?: unknown) => (await operation(secured(opSecurity, docSecurity), "a")).security;

describe("security placements", () => {
  it.each([
    ["header", { in: "header", name: "X-Api-Key" }],
    ["query", { in: "query", name: "api_key" }],
    ["cookie", { in: "cookie", name: "session" }],
    ["bearer", { in: "bearer" }],
    ["Bearer", { in: "bearer" }],
    ["basic", { in: "basic" }],
    ["oauth", { in: "bearer" }],
    ["oidc", { in: "bearer" }],
  ])("places a %s scheme", async (scheme, placement) => {
    expect(await placements([{ [scheme]: [] }])).toEqual([placement]);
  });

  it("uses the document's security when the operation has none, and the operation's over it", async () => {
    expect(await placements(undefined, [{ header: [] }])).toEqual([{ in: "header", name: "X-Api-Key" }]);
    expect(await placements([{ basic: [] }], [{ header: [] }])).toEqual([{ in: "basic" }]);
  });

  it("keeps the document's order and drops repeats", async () => {
    expect(await placements([{ query: [], header: [] }, { header: [] }, { oauth: ["read"] }, { oidc: [] }])).toEqual([
      { in: "query", name: "api_key" },
      { in: "header", name: "X-Api-Key" },
      { in: "bearer" },
    ]);
  });

  it("is null when nothing is said, and empty when no credential is needed", async () => {
    expect(await placements(undefined)).toBeNull();
    expect(await placements([], [{ header: [] }])).toEqual([]);
    expect(await placements([{}])).toEqual([]);
    expect(await placements([{}, { cookie: [] }])).toEqual([{ in: "cookie", name: "session" }]);
  });

  it("is null when only schemes it cannot place are named", async () => {
    expect(await placements([{ digest: [] }, { tls: [] }, { undefinedScheme: [] }])).toBeNull();
    expect(await placements([{ digest: [] }, { basic: [] }])).toEqual([{ in: "basic" }]);
  });

  it("refuses an apiKey scheme without a location", async () => {
    const d = doc({ "/a": { get: { operationId: "a", security: [{ k: [] }] } } }, { components: { securitySchemes: { k: { type: "apiKey", name: "k" } } } });
    await expect(operation(d, "a")).rejects.toThrow("security scheme k");
  });
});
