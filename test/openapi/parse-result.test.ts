import { describe, expect, it } from "vitest";
import { errorText, parseResult } from "../../src/tools/openapi/index.js";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("parseResult", () => {
  it("parses a JSON body and shows it compact", () => {
    expect(parseResult(200, "application/json; charset=utf-8", bytes('{ "id": "K-1",\n  "stock": 4 }'))).toEqual({
      result: { id: "K-1", stock: 4 },
      text: '{"id":"K-1","stock":4}',
      isError: false,
    });
    expect(parseResult(200, "application/problem+json", bytes("[1, 2]")).result).toEqual([1, 2]);
  });

  it("keeps a text body as text", () => {
    expect(parseResult(200, "text/plain", bytes('{"looks":"like json"}'))).toEqual({ result: '{"looks":"like json"}', text: '{"looks":"like json"}', isError: false });
  });

  it("keeps a JSON-typed body that does not parse as text", () => {
    expect(parseResult(200, "application/json", bytes("<html>oops</html>"))).toEqual({ result: "<html>oops</html>", text: "<html>oops</html>", isError: false });
  });

  it("tries JSON when there is no content type", () => {
    expect(parseResult(200, null, bytes('{"a":1}')).result).toEqual({ a: 1 });
    expect(parseResult(200, undefined, bytes("plain")).result).toBe("plain");
    expect(parseResult(204, null, bytes(""))).toEqual({ result: "", text: "", isError: false });
  });

  it("marks statuses from 400 as errors, shown as HTTP <status>: <body>", () => {
    expect(parseResult(503, "application/json", bytes('{ "error": "busy" }'))).toEqual({ result: { error: "busy" }, text: 'HTTP 503: {"error":"busy"}', isError: true });
    expect(parseResult(404, "text/plain", bytes("not here"))).toEqual({ result: "not here", text: "HTTP 404: not here", isError: true });
    expect(parseResult(400, "text/plain", bytes("")).text).toBe("HTTP 400");
    expect(parseResult(399, "text/plain", bytes("x")).isError).toBe(false);
    expect(errorText(500, "boom")).toBe("HTTP 500: boom");
  });

  it("decodes the declared charset", () => {
    expect(parseResult(200, "text/plain; charset=iso-8859-1", new Uint8Array([0x63, 0x61, 0x66, 0xe9])).text).toBe("café");
    expect(parseResult(200, "text/plain; charset=no-such-charset", bytes("café")).text).toBe("café");
  });
});
