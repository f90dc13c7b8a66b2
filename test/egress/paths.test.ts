// The seed's Paths rule: no argument can change the host or climb the path.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildUrl, egress, encodePathParam } from "../../src/egress/index.js";
import { json, loopbackPerTest, testPolicy } from "./loopback.js";

const { serve } = loopbackPerTest();

const HOSTILE = ["../", "../../admin", "%2F", "a/b", "@evil.example", "x#frag", "x?admin=1", "..%2F", ".%2E", "evil.example:80", "\\..\\", " spaced ", "ünï"];

describe("encodePathParam", () => {
  it("leaves only RFC 3986 unreserved characters unencoded", () => {
    expect(encodePathParam("AZaz09-._~")).toBe("AZaz09-._~");
    expect(encodePathParam("/?#@%:!'()*")).toBe("%2F%3F%23%40%25%3A%21%27%28%29%2A");
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (s) => {
      fc.pre(s !== "." && s !== "..");
      expect(encodePathParam(s)).toMatch(/^([A-Za-z0-9\-._~]|%[0-9A-F]{2})*$/);
      expect(decodeURIComponent(encodePathParam(s))).toBe(s);
    }));
  });

  it("refuses . and .., which no encoding keeps a single segment", () => {
    expect(() => encodePathParam("..")).toThrow(TypeError);
    expect(() => encodePathParam(".")).toThrow(TypeError);
    expect(() => encodePathParam("\uD800")).toThrow(TypeError);
  });
});

describe("buildUrl", () => {
  it("keeps the server's path prefix and appends the query", () => {
    expect(buildUrl("https://api.example.com/v3/", "/items/{id}", { id: "K 1" }, { tag: ["a", "b"], q: "x&y", skip: undefined })).toBe(
      "https://api.example.com/v3/items/K%201?tag=a&tag=b&q=x%26y",
    );
    expect(buildUrl("https://api.example.com", "/items", {}, {})).toBe("https://api.example.com/items");
  });

  it("keeps every hostile value inside the origin and prefix, as one segment", () => {
    for (const value of HOSTILE) {
      const url = new URL(buildUrl("https://api.example.com/base", "/items/{id}/detail", { id: value }));
      expect(url.host).toBe("api.example.com");
      expect(url.hash).toBe("");
      expect(url.search).toBe("");
      const segments = url.pathname.split("/");
      expect(segments).toHaveLength(5);
      expect(decodeURIComponent(segments[3]!)).toBe(value);
    }
  });

  it("refuses a template that would leave the prefix", () => {
    expect(() => buildUrl("https://api.example.com/base", "/../other")).toThrow(TypeError);
    expect(() => buildUrl("https://api.example.com/base", "/items/{id}")).toThrow(/id has no value/);
  });
});

describe("hostile arguments on the wire", () => {
  it("arrive at the same server as one path segment", async () => {
    const api = await serve((_req, res) => json(res, 200, {}));
    for (const value of HOSTILE) {
      await egress({ operation: "get", method: "GET", url: buildUrl(`${api.origin}/api`, "/items/{id}", { id: value }) }, testPolicy([api.host]));
    }
    expect(api.received).toHaveLength(HOSTILE.length);
    api.received.forEach((r, i) => {
      const [empty, prefix, items, segment, ...rest] = r.url.split("/");
      expect([empty, prefix, items, rest]).toEqual(["", "api", "items", []]);
      expect(segment).not.toMatch(/[?#]/);
      expect(decodeURIComponent(segment!)).toBe(HOSTILE[i]);
    });
  });
});
