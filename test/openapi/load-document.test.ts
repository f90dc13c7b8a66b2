import { createHash } from "node:crypto";
import { stringify } from "yaml";
import { describe, expect, it, vi } from "vitest";
import { ApiDocumentInvalid } from "../../src/errors.js";
import { loadDocument, loadOperations, type FetchBytes } from "../../src/tools/openapi/index.js";
import { doc } from "./helpers.js";

const document = doc({
  "/items/{id}": { get: { operationId: "getItem", parameters: [{ $ref: "#/components/parameters/Id" }] } },
}, { components: { parameters: { Id: { name: "id", in: "path", required: true, schema: { type: "string" } } } } });

const digest = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const served = (text: string) => {
  const bytes = new TextEncoder().encode(text);
  const fetchBytes = vi.fn<FetchBytes>(async () => bytes);
  return { bytes, fetchBytes, sha256: digest(bytes) };
};
const URL_ = "https://api.example.com/openapi";

describe("loadDocument", () => {
  it("uses an inline document as is, without fetching", async () => {
    const fetchBytes = vi.fn<FetchBytes>();
    await expect(loadDocument({ server: "https://x", document }, fetchBytes)).resolves.toBe(document);
    expect(fetchBytes).not.toHaveBeenCalled();
  });

  it("checks an inline document is OpenAPI 3", async () => {
    await expect(loadDocument({ server: "https://x", document: { swagger: "2.0", paths: {} } }, vi.fn())).rejects.toThrow("only OpenAPI 3.x");
  });

  it.each([
    ["JSON", JSON.stringify(document)],
    ["YAML", stringify(document)],
  ])("fetches a %s document and checks its digest", async (_, text) => {
    const { fetchBytes, sha256 } = served(text);
    await expect(loadDocument({ server: "https://x", url: URL_, sha256 }, fetchBytes)).resolves.toEqual(document);
    expect(fetchBytes).toHaveBeenCalledWith(URL_);
  });

  it("accepts a pin written in upper-case hex", async () => {
    const { fetchBytes, sha256 } = served(JSON.stringify(document));
    await expect(loadDocument({ server: "https://x", url: URL_, sha256: `sha256:${sha256.slice(7).toUpperCase()}` }, fetchBytes)).resolves.toEqual(document);
  });

  it("names both digests when the fetched bytes differ from the pin", async () => {
    const { fetchBytes, sha256 } = served(JSON.stringify(document));
    const pin = `sha256:${"0".repeat(64)}`;
    const error = await loadDocument({ server: "https://x", url: URL_, sha256: pin }, fetchBytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiDocumentInvalid);
    expect((error as Error).message).toContain(pin);
    expect((error as Error).message).toContain(sha256);
    expect((error as ApiDocumentInvalid).details).toEqual({ url: URL_, expected: pin, actual: sha256 });
  });

  it("refuses bytes that are neither JSON nor YAML, or not a 3.x document", async () => {
    const broken = served("openapi: [3.1.0\npaths: {");
    await expect(loadDocument({ server: "https://x", url: URL_, sha256: broken.sha256 }, broken.fetchBytes)).rejects.toThrow("neither JSON nor YAML");
    const list = served("- 1\n- 2\n");
    await expect(loadDocument({ server: "https://x", url: URL_, sha256: list.sha256 }, list.fetchBytes)).rejects.toThrow("is not an object");
    const swagger = served('{"swagger":"2.0","paths":{}}');
    await expect(loadDocument({ server: "https://x", url: URL_, sha256: swagger.sha256 }, swagger.fetchBytes)).rejects.toThrow("only OpenAPI 3.x");
  });

  it("passes a fetch failure through", async () => {
    const fetchBytes = vi.fn<FetchBytes>(async () => {
      throw new Error("connection refused");
    });
    await expect(loadDocument({ server: "https://x", url: URL_, sha256: `sha256:${"0".repeat(64)}` }, fetchBytes)).rejects.toThrow("connection refused");
  });
});

describe("loadOperations", () => {
  it("loads, dereferences and builds in one go", async () => {
    const { fetchBytes, sha256 } = served(stringify(document));
    const ops = await loadOperations({ server: "https://x", url: URL_, sha256 }, ["getItem"], fetchBytes);
    expect(ops.get("getItem")?.inputSchema).toEqual({ type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false });
  });
});
