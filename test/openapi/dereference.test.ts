import { describe, expect, it } from "vitest";
import { ApiDocumentInvalid } from "../../src/errors.js";
import { dereference } from "../../src/tools/openapi/index.js";
import { doc, type Doc } from "./helpers.js";

const bodyOf = (d: Doc): unknown => {
  const paths = d.paths as Record<string, Record<string, Record<string, Record<string, Record<string, Record<string, unknown>>>>>>;
  return paths["/a"]!.post!.requestBody!.content!["application/json"]!.schema;
};

const postWith = (schema: unknown, schemas: Doc = {}, version = "3.1.0"): Doc =>
  doc({ "/a": { post: { operationId: "a", requestBody: { content: { "application/json": { schema } } } } } }, { openapi: version, components: { schemas } });

describe("dereference", () => {
  it("inlines internal refs, including refs to parameters, without changing its input", async () => {
    const input = doc(
      { "/a": { get: { operationId: "a", parameters: [{ $ref: "#/components/parameters/Id" }] } } },
      { components: { parameters: { Id: { name: "id", in: "query", schema: { $ref: "#/components/schemas/Id" } } }, schemas: { Id: { type: "string" } } } },
    );
    const before = JSON.stringify(input);
    const out = await dereference(input);
    expect((out.paths as Doc)["/a"]).toEqual({ get: { operationId: "a", parameters: [{ name: "id", in: "query", schema: { type: "string" } }] } });
    expect(JSON.stringify(input)).toBe(before);
  });

  it("keeps a circular ref as a ref, so the result is plain JSON", async () => {
    const node = { type: "object", properties: { child: { $ref: "#/components/schemas/Node" }, name: { type: "string" } } };
    const out = await dereference(postWith({ $ref: "#/components/schemas/Node" }, { Node: node }));
    const text = JSON.stringify(out);
    expect(JSON.parse(text)).toEqual(out);
    const schemas = (out.components as Doc).schemas as Record<string, Doc>;
    expect((schemas.Node!.properties as Doc).child).toEqual({ $ref: "#/components/schemas/Node" });
  });

  it("names a dangling ref", async () => {
    const run = dereference(postWith({ $ref: "#/components/schemas/Missing" }));
    await expect(run).rejects.toThrow(ApiDocumentInvalid);
    await expect(dereference(postWith({ $ref: "#/components/schemas/Missing" }))).rejects.toThrow('"#/components/schemas/Missing"');
  });

  it.each(["other.yaml#/Pet", "https://example.com/pet.json", "./pet.json", "#pet-anchor"])("refuses the ref %s, naming it", async (ref) => {
    const error = await dereference(postWith({ $ref: ref })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiDocumentInvalid);
    expect((error as Error).message).toContain(ref);
    expect((error as ApiDocumentInvalid).details.ref).toBe(ref);
  });

  it("gives up on a document whose shared refs multiply, rather than hang", async () => {
    const schemas: Record<string, unknown> = { S0: { type: "string" } };
    for (let i = 1; i <= 30; i++) schemas[`S${i}`] = { type: "object", properties: { a: { $ref: `#/components/schemas/S${i - 1}` }, b: { $ref: `#/components/schemas/S${i - 1}` } } };
    await expect(dereference(postWith({ $ref: "#/components/schemas/S30" }, schemas), { timeoutMs: 50 })).rejects.toThrow("took longer than 50 ms");
  });

  it("refuses Swagger 2.0 and other versions", async () => {
    await expect(dereference({ swagger: "2.0", info: {}, paths: {} })).rejects.toThrow("only OpenAPI 3.x");
    await expect(dereference({ openapi: "4.0.0", paths: {} })).rejects.toThrow("only OpenAPI 3.x");
    await expect(dereference({ openapi: "3.1.0" })).rejects.toThrow(ApiDocumentInvalid);
    await expect(dereference("openapi: 3.1.0")).rejects.toThrow(ApiDocumentInvalid);
  });

  describe("3.0 schemas become JSON Schema 2020-12", () => {
    const upgraded = async (schema: unknown): Promise<unknown> => bodyOf(await dereference(postWith(schema, {}, "3.0.3")));

    it("widens a nullable type with null", async () => {
      expect(await upgraded({ type: "string", nullable: true })).toEqual({ type: ["string", "null"] });
      expect(await upgraded({ type: "string", nullable: false })).toEqual({ type: "string" });
    });

    it("adds null to a nullable enum", async () => {
      expect(await upgraded({ type: "string", enum: ["a", "b"], nullable: true })).toEqual({ type: ["string", "null"], enum: ["a", "b", null] });
    });

    it("makes null an alternative when there is no type to widen", async () => {
      const schema = { allOf: [{ type: "object" }], nullable: true, description: "d" };
      expect(await upgraded(schema)).toEqual({ anyOf: [{ allOf: [{ type: "object" }], description: "d" }, { type: "null" }] });
    });

    it("rewrites nested schemas and shared components once", async () => {
      const shared = { type: "integer", nullable: true };
      const out = await dereference(
        postWith(
          { type: "object", properties: { a: { $ref: "#/components/schemas/N" }, b: { type: "array", items: { $ref: "#/components/schemas/N" } } } },
          { N: shared },
          "3.0.0",
        ),
      );
      expect(bodyOf(out)).toEqual({
        type: "object",
        properties: { a: { type: ["integer", "null"] }, b: { type: "array", items: { type: ["integer", "null"] } } },
      });
    });

    it("turns boolean exclusive bounds into numbers", async () => {
      expect(await upgraded({ type: "number", minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false })).toEqual({
        type: "number",
        exclusiveMinimum: 1,
        maximum: 9,
      });
    });

    it("leaves data that merely looks like a keyword alone", async () => {
      const schema = { type: "object", default: { nullable: true }, example: { nullable: true }, properties: { nullable: { type: "boolean" } } };
      expect(await upgraded(schema)).toEqual(schema);
    });

    it("upgrades parameter schemas too", async () => {
      const out = await dereference({
        openapi: "3.0.1",
        paths: { "/a": { get: { parameters: [{ name: "q", in: "query", schema: { type: "string", nullable: true } }] } } },
      });
      expect(JSON.stringify(out)).toContain('"type":["string","null"]');
    });
  });
});
