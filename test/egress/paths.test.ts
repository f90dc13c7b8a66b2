// The seed's Paths rule on the wire: no argument can change the host or
// climb the path. URLs are built by the OpenAPI layer (its own tests cover
// the encoding); this proves what a real server receives through egress.
import { describe, expect, it } from "vitest";
import { egress } from "../../src/egress/index.js";
import { buildOperations, buildRequest } from "../../src/tools/openapi/index.js";
import { json, loopbackPerTest, testPolicy } from "./loopback.js";

const { serve } = loopbackPerTest();

const HOSTILE = ["../", "../../admin", "%2F", "a/b", "@evil.example", "x#frag", "x?admin=1", "..%2F", ".%2E", "evil.example:80", "\\..\\", " spaced ", "ünï"];

const operation = buildOperations(
  {
    openapi: "3.1.0",
    info: { title: "Items", version: "1" },
    paths: { "/items/{id}": { get: { operationId: "getItem", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }] } } },
  },
  ["getItem"],
).get("getItem")!;

describe("hostile path arguments on the wire", () => {
  it("arrive at the same server, under the prefix, as one path segment", async () => {
    const api = await serve((_req, res) => json(res, 200, {}));
    for (const value of HOSTILE) {
      const request = buildRequest(operation, `${api.origin}/api`, { id: value });
      await egress({ operation: "getItem", method: request.method, url: request.url, headers: request.headers }, testPolicy([api.host]));
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
