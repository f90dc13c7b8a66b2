// The grant's timing and sharing rules, with a clock the test moves: held
// until 60 s before expiry, one exchange for concurrent callers, a 401 on a
// token already replaced costs no new exchange, a revoked grant stays revoked.
import { afterEach, describe, expect, it } from "vitest";
import { InvalidGrant } from "../../src/errors.js";
import { OAuthGrants, oauthCredentials } from "../../src/oauth/grants.js";
import type { CredentialRef } from "../../src/egress/index.js";
import { testPolicy } from "../egress/loopback.js";
import { startAuthServer, type AuthServer } from "./auth-server.js";

let as: AuthServer | undefined;
afterEach(async () => {
  await as?.close();
  as = undefined;
});

const credential: CredentialRef = { name: "suppliers", kind: "oauth2", hosts: ["api.example.com"], placement: { in: "bearer" } };

async function setup(lifetimeS = 600) {
  as = await startAuthServer({ accessLifetimeS: lifetimeS });
  const grant = as.grant();
  let now = 1_000_000;
  const grants = new OAuthGrants({ now: () => now });
  const env = { SUPPLIERS_REFRESH_TOKEN: grant.refreshToken, SUPPLIERS_CLIENT_ID: grant.clientId };
  const source = () => oauthCredentials({ grants, tokenUrls: new Map([["suppliers", as!.tokenEndpoint]]), env, policy: testPolicy([]) });
  return { source, advance: (ms: number) => (now += ms), refreshes: () => as!.tokenRequests.filter((r) => r.grant === "refresh_token") };
}

describe("a refresh grant", () => {
  it("holds a short-lived token for nine tenths of its life, not refreshing before every request", async () => {
    const { source, advance, refreshes } = await setup(30);
    const s = source();
    const first = await s.read(credential);
    for (let i = 0; i < 5; i++) {
      advance(5_000);
      expect(await s.read(credential)).toBe(first);
    }
    advance(2_000);
    expect(await s.read(credential)).not.toBe(first);
    expect(refreshes()).toHaveLength(2);
  });

  it("holds the access token until 60 s before it expires", async () => {
    const { source, advance, refreshes } = await setup(600);
    const s = source();
    const first = await s.read(credential);
    advance(539_000);
    expect(await s.read(credential)).toBe(first);
    advance(1_000);
    expect(await s.read(credential)).not.toBe(first);
    expect(refreshes()).toHaveLength(2);
  });

  it("makes one exchange for concurrent readers, across runs of one process", async () => {
    const { source, refreshes } = await setup();
    const tokens = await Promise.all([source().read(credential), source().read(credential), source().read(credential)]);
    expect(new Set(tokens).size).toBe(1);
    expect(refreshes()).toHaveLength(1);
  });

  it("refreshes after a 401, but not again for a run that sent a token already replaced", async () => {
    const { source, refreshes } = await setup();
    const a = source();
    const b = source();
    const old = await a.read(credential);
    await b.read(credential);
    expect(await a.rejected!(credential)).toBe(true);
    const fresh = await a.read(credential);
    expect(fresh).not.toBe(old);
    // b sent the old token too; its 401 finds the newer one held and resends with it.
    expect(await b.rejected!(credential)).toBe(true);
    expect(await b.read(credential)).toBe(fresh);
    expect(refreshes()).toHaveLength(2);
  });

  it("stays revoked after invalid_grant, without asking the server again", async () => {
    const { source, refreshes } = await setup();
    as!.revokeRefreshTokens();
    await expect(source().read(credential)).rejects.toBeInstanceOf(InvalidGrant);
    await expect(source().read(credential)).rejects.toBeInstanceOf(InvalidGrant);
    expect(refreshes()).toHaveLength(1);
  });

  it("leaves a credential without the refresh form to <NAME>_API_KEY, and a 401 on it as it is", async () => {
    const s = oauthCredentials({ grants: new OAuthGrants(), tokenUrls: new Map(), env: { SUPPLIERS_API_KEY: "ready" }, policy: testPolicy([]) });
    expect(await s.read(credential)).toBe("ready");
    expect(await s.rejected!(credential)).toBe(false);
  });
});
