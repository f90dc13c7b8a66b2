// The token store's rules on disk: created 0600, refused when others can
// read it or it is not a store, rotations chained to the token they started
// from, and a new token in the environment starting a new chain.
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TokenStore } from "../../src/oauth/token-store.js";

const TOKEN_URL = "https://idp.example/oidc/token";
const fresh = () => join(mkdtempSync(join(tmpdir(), "stepgate-store-")), "tokens.json");

describe("the token store", () => {
  it("is created with mode 0600 and holds nothing until a rotation", () => {
    const path = fresh();
    const store = TokenStore.open(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(store.current("crm", TOKEN_URL, "client", "from-env")).toBeUndefined();
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ stepgate_token_store: 1, grants: [] });
  });

  it("prefers a rotated token of the same chain over the environment's, across reopening", async () => {
    const path = fresh();
    const store = TokenStore.open(path);
    await store.save("crm", TOKEN_URL, "client", "rotated-1", "from-env");
    await store.save("crm", TOKEN_URL, "client", "rotated-2", "rotated-1");
    const reopened = TokenStore.open(path);
    expect(reopened.current("crm", TOKEN_URL, "client", "from-env")).toBe("rotated-2");
    // Another client or credential is another grant.
    expect(reopened.current("crm", TOKEN_URL, "other-client", "from-env")).toBeUndefined();
    expect(reopened.current("billing", TOKEN_URL, "client", "from-env")).toBeUndefined();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("lets a new token in the environment (a fresh --auth) win over an older chain", async () => {
    const path = fresh();
    const store = TokenStore.open(path);
    await store.save("crm", TOKEN_URL, "client", "rotated-1", "old-env");
    expect(TokenStore.open(path).current("crm", TOKEN_URL, "client", "new-env")).toBeUndefined();
  });

  it("serves a token --auth wrote when the environment gives only the client id", async () => {
    const path = fresh();
    await TokenStore.open(path).save("crm", TOKEN_URL, "client", "from-auth");
    expect(TokenStore.open(path).current("crm", TOKEN_URL, "client", undefined)).toBe("from-auth");
  });

  it("refuses a file others can read, and one that is not a store", () => {
    const path = fresh();
    writeFileSync(path, JSON.stringify({ stepgate_token_store: 1, grants: [] }), { mode: 0o600 });
    chmodSync(path, 0o640);
    expect(() => TokenStore.open(path)).toThrow(`${path} can be read or written by others (mode 640); run chmod 600 ${path}`);
    chmodSync(path, 0o600);
    writeFileSync(path, "{ not json");
    expect(() => TokenStore.open(path)).toThrow(`${path} is not a Stepgate token store`);
  });

  it("keeps the client's authentication method from --auth through rotations", async () => {
    const path = fresh();
    await TokenStore.open(path).save("crm", TOKEN_URL, "client", "from-auth", undefined, "client_secret_post");
    const store = TokenStore.open(path);
    await store.save("crm", TOKEN_URL, "client", "rotated-1", "from-auth");
    expect(TokenStore.open(path).clientAuthMethod("crm", TOKEN_URL, "client")).toBe("client_secret_post");
    expect(TokenStore.open(path).clientAuthMethod("crm", TOKEN_URL, "other-client")).toBeUndefined();
  });

  it("keeps an access token without refresh until it expires, and refuses a malformed one", async () => {
    const path = fresh();
    const expires = new Date(Date.parse("2030-01-01T00:00:00Z"));
    await TokenStore.open(path).saveAccess("crm", TOKEN_URL, "access-1", expires);
    const store = TokenStore.open(path);
    expect(store.access("crm", TOKEN_URL, expires.getTime() - 1)).toEqual({ token: "access-1" });
    expect(store.access("crm", TOKEN_URL, expires.getTime())).toEqual({ expiredAt: "2030-01-01T00:00:00.000Z" });
    expect(store.access("billing", TOKEN_URL, 0)).toBeUndefined();
    // A later --auth replaces it; one without an expiry is used until the API refuses it.
    await store.saveAccess("crm", TOKEN_URL, "access-2");
    expect(TokenStore.open(path).access("crm", TOKEN_URL, Number.MAX_SAFE_INTEGER)).toEqual({ token: "access-2" });
    writeFileSync(path, JSON.stringify({ stepgate_token_store: 1, grants: [], access_tokens: [{ credential: "crm", token_url: TOKEN_URL, access_token: "x", expires_at: "soon" }] }));
    expect(() => TokenStore.open(path)).toThrow(`${path} is not a Stepgate token store`);
  });
});
