import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolCallFailed } from "../../src/errors.js";
import { buildRequest, type OperationSpec } from "../../src/tools/openapi/index.js";
import { doc, operation, opWith, withBody } from "./helpers.js";

const BASE = "https://api.example.com/api/v3";

const itemOp = () => opWith([{ name: "id", in: "path", required: true, schema: { type: "string" } }], "/items/{id}");
const queryOp = (param: Record<string, unknown>) => opWith([{ name: "tag", in: "query", schema: { type: "array" }, ...param }]);
const refusal = (run: () => unknown): ToolCallFailed => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolCallFailed);
    expect((error as ToolCallFailed).status).toBeNull();
    return error as ToolCallFailed;
  }
  throw new Error("expected the request to be refused");
};

describe("buildRequest", () => {
  describe("path", () => {
    it("joins the server's path prefix and the template", async () => {
      const op = await itemOp();
      expect(buildRequest(op, BASE, { id: "K-1" })).toEqual({
        method: "GET",
        url: "https://api.example.com/api/v3/items/K-1",
        headers: { accept: "application/json, */*;q=0.5" },
      });
      expect(buildRequest(op, `${BASE}/`, { id: "K-1" }).url).toBe("https://api.example.com/api/v3/items/K-1");
      expect(buildRequest(op, "http://127.0.0.1:8080", { id: "K-1" }).url).toBe("http://127.0.0.1:8080/items/K-1");
    });

    it.each([
      ["../../admin", "..%2F..%2Fadmin"],
      ["a/b", "a%2Fb"],
      ["%2F", "%252F"],
      ["x@evil.example", "x%40evil.example"],
      ["#frag", "%23frag"],
      ["?q=1", "%3Fq%3D1"],
      ["a\\..\\b", "a%5C..%5Cb"],
      ["//evil.example", "%2F%2Fevil.example"],
      ["https://evil.example/", "https%3A%2F%2Fevil.example%2F"],
      ["a b+c", "a%20b%2Bc"],
      ["it's (*)!", "it%27s%20%28%2A%29%21"],
      ["ключ", "%D0%BA%D0%BB%D1%8E%D1%87"],
      ["~._-", "~._-"],
    ])("keeps the hostile argument %j inside one segment", async (value, encoded) => {
      const request = buildRequest(await itemOp(), BASE, { id: value });
      expect(request.url).toBe(`https://api.example.com/api/v3/items/${encoded}`);
      const url = new URL(request.url);
      expect(url.host).toBe("api.example.com");
      expect(url.search).toBe("");
      expect(url.hash).toBe("");
      expect(decodeURIComponent(url.pathname.split("/").at(-1)!)).toBe(value);
    });

    it.each([".", "..", ""])("refuses the path argument %j", async (value) => {
      const op = await itemOp();
      expect(refusal(() => buildRequest(op, BASE, { id: value })).message).toMatch(/path parameter id/);
    });

    it("refuses a lone surrogate, which has no UTF-8 form", async () => {
      const op = await itemOp();
      expect(refusal(() => buildRequest(op, BASE, { id: "a\uD800b" })).message).toContain("lone UTF-16 surrogate");
    });

    it("keeps any string inside its segment (property)", async () => {
      const op = await itemOp();
      fc.assert(
        fc.property(fc.string({ unit: "grapheme" }), (value) => {
          fc.pre(value !== "" && value !== "." && value !== "..");
          const url = new URL(buildRequest(op, BASE, { id: value }).url);
          expect(url.origin).toBe("https://api.example.com");
          const segments = url.pathname.split("/");
          expect(segments.slice(0, 4)).toEqual(["", "api", "v3", "items"]);
          expect(segments).toHaveLength(5);
          expect(decodeURIComponent(segments[4]!)).toBe(value);
        }),
      );
    });

    it("serialises arrays and objects in simple, label and matrix styles", async () => {
      const op = (style: string, explode: boolean) =>
        opWith([{ name: "id", in: "path", style, explode, schema: {} }], "/x/{id}");
      expect(buildRequest(await op("simple", false), BASE, { id: ["a", "b/c"] }).url).toBe(`${BASE}/x/a,b%2Fc`);
      expect(buildRequest(await op("simple", false), BASE, { id: { k: "v", n: 1 } }).url).toBe(`${BASE}/x/k,v,n,1`);
      expect(buildRequest(await op("simple", true), BASE, { id: { k: "v", n: 1 } }).url).toBe(`${BASE}/x/k=v,n=1`);
      expect(buildRequest(await op("label", false), BASE, { id: ["a", "b"] }).url).toBe(`${BASE}/x/.a,b`);
      expect(buildRequest(await op("label", true), BASE, { id: ["a", "b"] }).url).toBe(`${BASE}/x/.a.b`);
      expect(buildRequest(await op("matrix", false), BASE, { id: ["a", "b"] }).url).toBe(`${BASE}/x/;id=a,b`);
      expect(buildRequest(await op("matrix", true), BASE, { id: ["a", "b"] }).url).toBe(`${BASE}/x/;id=a;id=b`);
      expect(buildRequest(await op("matrix", false), BASE, { id: 5 }).url).toBe(`${BASE}/x/;id=5`);
      const object = { k: "v", "a/b": "c" };
      expect(buildRequest(await op("label", false), BASE, { id: object }).url).toBe(`${BASE}/x/.k,v,a%2Fb,c`);
      expect(buildRequest(await op("label", true), BASE, { id: object }).url).toBe(`${BASE}/x/.k=v.a%2Fb=c`);
      expect(buildRequest(await op("matrix", false), BASE, { id: object }).url).toBe(`${BASE}/x/;id=k,v,a%2Fb,c`);
      expect(buildRequest(await op("matrix", true), BASE, { id: object }).url).toBe(`${BASE}/x/;k=v;a%2Fb=c`);
    });
  });

  describe("query", () => {
    it("repeats an array's name, or joins it with commas when explode is false", async () => {
      expect(buildRequest(await queryOp({}), BASE, { tag: ["a", "b c"] }).url).toBe(`${BASE}/items?tag=a&tag=b%20c`);
      expect(buildRequest(await queryOp({ explode: false }), BASE, { tag: ["a", "b,c"] }).url).toBe(`${BASE}/items?tag=a,b%2Cc`);
      expect(buildRequest(await queryOp({}), BASE, { tag: [] }).url).toBe(`${BASE}/items`);
    });

    it("joins with spaces or pipes for those styles", async () => {
      expect(buildRequest(await queryOp({ style: "spaceDelimited", explode: false }), BASE, { tag: ["a", "b"] }).url).toBe(`${BASE}/items?tag=a%20b`);
      expect(buildRequest(await queryOp({ style: "pipeDelimited", explode: false }), BASE, { tag: ["a", "b"] }).url).toBe(`${BASE}/items?tag=a|b`);
      expect(buildRequest(await queryOp({ style: "pipeDelimited", explode: false }), BASE, { tag: { R: 1, G: 2 } }).url).toBe(`${BASE}/items?tag=R|1|G|2`);
      expect(buildRequest(await queryOp({ style: "spaceDelimited", explode: false }), BASE, { tag: { R: 1 } }).url).toBe(`${BASE}/items?tag=R%201`);
    });

    it("sends objects as form fields or deepObject brackets", async () => {
      const filter = { status: "open", "a&b": "x=y" };
      expect(buildRequest(await queryOp({ name: "f" }), BASE, { f: filter }).url).toBe(`${BASE}/items?status=open&a%26b=x%3Dy`);
      expect(buildRequest(await queryOp({ name: "f", explode: false }), BASE, { f: filter }).url).toBe(`${BASE}/items?f=status,open,a%26b,x%3Dy`);
      expect(buildRequest(await queryOp({ name: "f", style: "deepObject" }), BASE, { f: filter }).url).toBe(
        `${BASE}/items?f%5Bstatus%5D=open&f%5Ba%26b%5D=x%3Dy`,
      );
    });

    it("refuses nested values it has no rule for, and arrays as deepObject", async () => {
      const op = await queryOp({ name: "f", style: "deepObject" });
      expect(refusal(() => buildRequest(op, BASE, { f: ["a"] })).message).toContain("must be an object");
      expect(refusal(() => buildRequest(op, BASE, { f: { a: { b: 1 } } })).message).toContain("nested");
      const arrays = await queryOp({});
      refusal(() => buildRequest(arrays, BASE, { tag: [["a"]] }));
    });

    it("encodes names and values and skips absent optional ones", async () => {
      const op = await opWith([
        { name: "q", in: "query", schema: { type: "string" } },
        { name: "page size", in: "query", schema: { type: "integer" } },
        { name: "flag", in: "query", schema: { type: "boolean" } },
      ]);
      expect(buildRequest(op, BASE, { q: "a&b=c#d", "page size": 10, flag: false }).url).toBe(`${BASE}/items?q=a%26b%3Dc%23d&page%20size=10&flag=false`);
      expect(buildRequest(op, BASE, {}).url).toBe(`${BASE}/items`);
    });

    it("sends a JSON content parameter as JSON text", async () => {
      const op = await opWith([{ name: "filter", in: "query", content: { "application/json": { schema: { type: "object" } } } }]);
      expect(buildRequest(op, BASE, { filter: { a: [1, 2] } }).url).toBe(`${BASE}/items?filter=%7B%22a%22%3A%5B1%2C2%5D%7D`);
    });
  });

  it("sends fixed parameters without being asked", async () => {
    const op = await opWith([
      { name: "v", in: "query", required: true, schema: { const: "2024-01-01" } },
      { name: "X-Format", in: "header", schema: { enum: ["compact"] } },
      { name: "kind", in: "path", schema: { const: "books" } },
    ], "/{kind}");
    const request = buildRequest(op, BASE, {});
    expect(request.url).toBe(`${BASE}/books?v=2024-01-01`);
    expect(request.headers["x-format"]).toBe("compact");
    // A client cannot override a fixed value.
    expect(buildRequest(op, BASE, { v: "evil", kind: "x" }).url).toBe(`${BASE}/books?v=2024-01-01`);
  });

  it("sends header and cookie parameters", async () => {
    const op = await opWith([
      { name: "X-Request-Id", in: "header", schema: { type: "string" } },
      { name: "X-Tags", in: "header", schema: { type: "array" } },
      { name: "theme", in: "cookie", schema: { type: "string" } },
      { name: "ids", in: "cookie", explode: false, schema: { type: "array" } },
    ]);
    const request = buildRequest(op, BASE, { "X-Request-Id": "r-1", "X-Tags": ["a", "b"], theme: "dark mode", ids: [1, 2] });
    expect(request.headers).toEqual({ accept: "application/json, */*;q=0.5", "x-request-id": "r-1", "x-tags": "a,b", cookie: "theme=dark%20mode; ids=1,2" });
  });

  it.each(["a\r\nX-Injected: 1", "a\nb", "a\0b", "snow ☃"])("refuses the header value %j", async (value) => {
    const op = await opWith([{ name: "X-Id", in: "header", schema: { type: "string" } }]);
    expect(refusal(() => buildRequest(op, BASE, { "X-Id": value })).message).toContain("header parameter X-Id");
  });

  it("refuses a missing required parameter", async () => {
    const op = await opWith([{ name: "q", in: "query", required: true, schema: { type: "string" } }]);
    expect(refusal(() => buildRequest(op, BASE, {})).message).toContain("query parameter q is required");
  });

  describe("body", () => {
    it("sends JSON with the declared content type", async () => {
      const op = await operation(withBody({ "application/json": { schema: { type: "object" } } }), "op");
      expect(buildRequest(op, BASE, { body: { name: "Rex", tags: ["a"] } })).toEqual({
        method: "POST",
        url: `${BASE}/items`,
        headers: { accept: "application/json, */*;q=0.5", "content-type": "application/json" },
        body: '{"name":"Rex","tags":["a"]}',
      });
    });

    it("sends a text body as the string itself", async () => {
      const op = await operation(withBody({ "text/markdown": {} }), "op");
      const request = buildRequest(op, BASE, { body: "# Title\n\n{not json}" });
      expect(request.body).toBe("# Title\n\n{not json}");
      expect(request.headers["content-type"]).toBe("text/markdown");
      expect(refusal(() => buildRequest(op, BASE, { body: { a: 1 } })).message).toContain("must be a string");
    });

    it("sends text/* as text/plain", async () => {
      const op = await operation(withBody({ "text/*": {} }), "op");
      expect(buildRequest(op, BASE, { body: "hi" }).headers["content-type"]).toBe("text/plain");
    });

    it("leaves out an optional body and refuses a missing required one", async () => {
      const optional = await operation(withBody({ "application/json": {} }, false), "op");
      expect(buildRequest(optional, BASE, {})).toEqual({ method: "POST", url: `${BASE}/items`, headers: { accept: "application/json, */*;q=0.5" } });
      const required = await operation(withBody({ "application/json": {} }), "op");
      expect(refusal(() => buildRequest(required, BASE, {})).message).toContain("requires a body");
    });
  });

  it("attaches no credential, whatever the security says", async () => {
    const d = doc(
      { "/a": { get: { operationId: "a", security: [{ k: [] }, { b: [] }] } } },
      { components: { securitySchemes: { k: { type: "apiKey", in: "query", name: "key" }, b: { type: "http", scheme: "bearer" } } } },
    );
    const request = buildRequest(await operation(d, "a"), BASE, {});
    expect(request.url).toBe(`${BASE}/a`);
    expect(Object.keys(request.headers)).toEqual(["accept"]);
  });

  it("asserts the final URL stays under the server even for a hostile template", () => {
    const op: OperationSpec = {
      name: "bad",
      method: "GET",
      pathTemplate: "/../../{id}",
      description: "",
      inputSchema: { type: "object" },
      argumentSchema: { type: "object" },
      params: [{ name: "id", in: "path", argument: "id", required: true, schema: {}, style: "simple", explode: false }],
      accept: "*/*",
      security: null,
    };
    expect(refusal(() => buildRequest(op, BASE, { id: "x" })).message).toContain("would climb out of /api/v3");
  });
});

describe("buildRequest with a template's own odd characters", () => {
  it("keeps ?, # and spaces of the document's path inside the path", async () => {
    const op = await operation(doc({ "/cookies#form mode?x": { get: { operationId: "op" } } }), "op");
    const url = new URL(buildRequest(op, BASE, {}).url);
    expect(url.pathname).toBe("/api/v3/cookies%23form%20mode%3Fx");
    expect(url.search + url.hash).toBe("");
  });
});
