// The bearer token guard compares tokens with hono's timingSafeEqual (the
// hashes of both compared in constant time), not with ===: the module is
// replaced by a spy that calls the real one, and every request with a
// bearer token must go through it.
import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";

const compared = vi.hoisted(() => ({ calls: [] as Array<[unknown, unknown]> }));
vi.mock("hono/utils/buffer", async (importOriginal) => {
  const real = await importOriginal<typeof import("hono/utils/buffer")>();
  return {
    ...real,
    timingSafeEqual: (a: string, b: string, hash?: (value: string) => string) => {
      compared.calls.push([a, b]);
      return real.timingSafeEqual(a, b, hash);
    },
  };
});

const { bearerToken } = await import("../../middleware/bearer-token.js");
const { HTTPException } = await import("hono/http-exception");

function app() {
  const hono = new Hono();
  hono.onError((error) => (error instanceof HTTPException ? error.getResponse() : new Response("error", { status: 500 })));
  hono.use(bearerToken({ token: "right-token" }));
  hono.get("/", (c) => c.text("ok"));
  return hono;
}

afterEach(() => void (compared.calls.length = 0));

describe("bearerToken", () => {
  it("compares every bearer token with timingSafeEqual", async () => {
    expect((await app().request("/", { headers: { authorization: "Bearer right-token" } })).status).toBe(200);
    expect((await app().request("/", { headers: { authorization: "Bearer wrong-token" } })).status).toBe(401);
    expect((await app().request("/", { headers: { authorization: "Bearer right-toke" } })).status).toBe(401);
    expect(compared.calls).toEqual([
      ["right-token", "right-token"],
      ["right-token", "wrong-token"],
      ["right-token", "right-toke"],
    ]);
  });

  it("refuses a missing header or another scheme without comparing anything", async () => {
    expect((await app().request("/")).status).toBe(401);
    expect((await app().request("/", { headers: { authorization: "Basic cmlnaHQtdG9rZW4=" } })).status).toBe(401);
    expect(compared.calls).toEqual([]);
  });

  it("refuses to be set up with a token no client could send", () => {
    expect(() => bearerToken({ token: "two words" })).toThrow(/a bearer token is/);
  });
});
