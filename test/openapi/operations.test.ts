import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { ApiDocumentInvalid } from "../../src/errors.js";
import { buildOperations, dereference } from "../../src/tools/openapi/index.js";
import { doc, operation, opWith, withBody } from "./helpers.js";

const ajv = () => new Ajv2020.default({ strict: false, logger: false });

// The document of the public conformance case openapi-call.case.yaml.
const catalogue = doc(
  {
    "/items/{id}": {
      get: {
        operationId: "getItem",
        security: [{ key: [] }],
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      },
    },
    "/other": { get: { operationId: "getOther" } },
  },
  { components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Api-Key" } } } },
);

describe("buildOperations", () => {
  it("builds each exposed operation and nothing else", async () => {
    const ops = buildOperations(await dereference(catalogue), ["getItem"]);
    expect([...ops.keys()]).toEqual(["getItem"]);
    expect(ops.get("getItem")).toMatchObject({
      name: "getItem",
      method: "GET",
      pathTemplate: "/items/{id}",
      description: "GET /items/{id}",
      inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false },
      params: [{ name: "id", in: "path", argument: "id", required: true, style: "simple", explode: false }],
      security: [{ in: "header", name: "X-Api-Key" }],
    });
    expect(ops.get("getItem")!.body).toBeUndefined();
  });

  it("names an operationId the document lacks", async () => {
    const built = async () => buildOperations(await dereference(catalogue), ["getItem", "deleteItem"]);
    await expect(built()).rejects.toThrow(ApiDocumentInvalid);
    await expect(built()).rejects.toThrow(/operation deleteItem is not in the document \(its operationIds: getItem, getOther\)/);
  });

  it("refuses an exposed operationId used twice", async () => {
    const twice = doc({ "/a": { get: { operationId: "x" } }, "/b": { get: { operationId: "x" } } });
    await expect(operation(twice, "x")).rejects.toThrow("operationId x is used by more than one operation");
  });

  it("reads a frozen document without changing it", async () => {
    const freeze = (value: unknown): unknown => {
      if (typeof value === "object" && value !== null) Object.values(Object.freeze(value)).forEach(freeze);
      return value;
    };
    const frozen = freeze(structuredClone(catalogue)) as typeof catalogue;
    const ops = buildOperations(await dereference(frozen), ["getItem"]);
    expect(ops.get("getItem")!.params).toHaveLength(1);
  });

  it("refuses a document that is not OpenAPI 3", () => {
    expect(() => buildOperations({ swagger: "2.0", paths: {} }, [])).toThrow("only OpenAPI 3.x");
  });

  it("describes an operation from its summary and description", async () => {
    const d = doc({ "/a": { get: { operationId: "a", summary: "List things", description: "Lists every thing." } } });
    expect((await operation(d, "a")).description).toBe("List things\n\nLists every thing.");
    const only = doc({ "/a": { get: { operationId: "a", description: "Lists." } } });
    expect((await operation(only, "a")).description).toBe("Lists.");
  });

  describe("parameters", () => {
    it("merges path-level parameters, the operation's winning by name and location", async () => {
      const d = doc({
        "/items/{id}": {
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" } },
            { name: "limit", in: "query", schema: { type: "integer" } },
            { name: "limit", in: "header", schema: { type: "string" } },
          ],
          get: { operationId: "op", parameters: [{ name: "limit", in: "query", required: true, schema: { type: "integer", maximum: 5 } }] },
        },
      });
      const op = await operation(d, "op");
      expect(op.params.map((p) => `${p.in}:${p.name}:${p.argument}`)).toEqual(["path:id:id", "query:limit:query.limit", "header:limit:header.limit"]);
      expect(op.inputSchema.properties).toMatchObject({ "query.limit": { type: "integer", maximum: 5 } });
      expect(op.inputSchema.required).toEqual(["id", "query.limit"]);
    });

    it("makes path parameters required even when the document forgets to", async () => {
      const op = await opWith([{ name: "id", in: "path", schema: { type: "string" } }], "/items/{id}");
      expect(op.inputSchema.required).toEqual(["id"]);
    });

    it("refuses a path whose template names an undeclared parameter", async () => {
      await expect(opWith([], "/items/{id}")).rejects.toThrow("uses {id}, which no path parameter declares");
    });

    it("hides a parameter that admits one value and sends that value", async () => {
      const op = await opWith([
        { name: "version", in: "query", required: true, schema: { const: "2" } },
        { name: "format", in: "header", schema: { type: "string", enum: ["json"] } },
        { name: "kind", in: "query", schema: { type: "string", enum: ["a", "b"] } },
      ]);
      expect(Object.keys(op.inputSchema.properties as object)).toEqual(["kind"]);
      expect(op.inputSchema.required).toBeUndefined();
      expect(op.params.find((p) => p.name === "version")!.fixed).toEqual({ value: "2" });
      expect(op.params.find((p) => p.name === "format")!.fixed).toEqual({ value: "json" });
      expect(op.params.find((p) => p.name === "kind")!.fixed).toBeUndefined();
    });

    it("does not let a fixed parameter take a name from another", async () => {
      const op = await opWith([
        { name: "id", in: "header", schema: { const: "x" } },
        { name: "id", in: "query", schema: { type: "string" } },
      ]);
      expect(Object.keys(op.inputSchema.properties as object)).toEqual(["id"]);
    });

    it("qualifies a parameter called body when the operation has a body", async () => {
      const d = doc({
        "/items": {
          post: {
            operationId: "op",
            parameters: [{ name: "body", in: "query", required: true, schema: { type: "string" } }],
            requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } },
          },
        },
      });
      const op = await operation(d, "op");
      expect(op.inputSchema.properties).toEqual({ "query.body": { type: "string" }, body: { type: "object" } });
      expect(op.inputSchema.required).toEqual(["query.body", "body"]);
      const noBody = await opWith([{ name: "body", in: "query", schema: { type: "string" } }]);
      expect(Object.keys(noBody.inputSchema.properties as object)).toEqual(["body"]);
    });

    it("ignores header parameters the request itself sets", async () => {
      const op = await opWith(["Accept", "content-type", "Authorization", "Host", "Cookie", "Content-Length", "X-Trace"].map((name) => ({ name, in: "header", schema: { type: "string" } })));
      expect(op.params.map((p) => p.name)).toEqual(["X-Trace"]);
    });

    it("copies a parameter's description into its schema", async () => {
      const op = await opWith([{ name: "q", in: "query", description: "Search text", schema: { type: "string" } }]);
      expect(op.inputSchema.properties).toEqual({ q: { type: "string", description: "Search text" } });
    });

    it("defaults style and explode per location, and refuses unsupported styles", async () => {
      const op = await opWith([
        { name: "id", in: "path", schema: { type: "string" } },
        { name: "q", in: "query", schema: { type: "array" } },
        { name: "f", in: "query", explode: false, schema: { type: "array" } },
        { name: "h", in: "header", schema: { type: "string" } },
      ], "/a/{id}");
      expect(op.params.map((p) => [p.name, p.style, p.explode])).toEqual([
        ["id", "simple", false],
        ["q", "form", true],
        ["f", "form", false],
        ["h", "simple", false],
      ]);
      await expect(opWith([{ name: "q", in: "query", style: "matrix" }])).rejects.toThrow("style matrix");
    });

    it("reads a JSON content parameter", async () => {
      const op = await opWith([{ name: "filter", in: "query", content: { "application/json": { schema: { type: "object" } } } }]);
      expect(op.params[0]).toMatchObject({ contentType: "application/json", schema: { type: "object" } });
    });
  });

  describe("request bodies", () => {
    it("takes a JSON body as the body property", async () => {
      const op = await operation(withBody({ "application/xml": {}, "application/json": { schema: { type: "object", required: ["n"] } } }), "op");
      expect(op.body).toEqual({ contentType: "application/json", kind: "json", required: true });
      expect(op.inputSchema).toMatchObject({ properties: { body: { type: "object", required: ["n"] } }, required: ["body"] });
    });

    it("recognises +json media types", async () => {
      expect((await operation(withBody({ "application/vnd.api+json": { schema: {} } }), "op")).body?.kind).toBe("json");
    });

    it.each(["text/plain", "text/markdown", "message/rfc822"])("takes a %s body as a string", async (type) => {
      const op = await operation(withBody({ [type]: { schema: { type: "object" } } }, false), "op");
      expect(op.body).toEqual({ contentType: type, kind: "text", required: false });
      expect(op.inputSchema.properties).toEqual({ body: { type: "string" } });
      expect(op.inputSchema.required).toBeUndefined();
    });

    it("refuses a required body it cannot send, and drops an optional one", async () => {
      await expect(operation(withBody({ "multipart/form-data": {} }), "op")).rejects.toThrow("requires a request body of multipart/form-data");
      const op = await operation(withBody({ "application/x-www-form-urlencoded": {} }, false), "op");
      expect(op.body).toBeUndefined();
      expect(op.inputSchema.properties).toEqual({});
    });
  });

  it("asks for JSON first, then what the success responses declare", async () => {
    const d = doc({
      "/a": {
        get: {
          operationId: "a",
          responses: { "200": { content: { "application/xml": {}, "application/json": {} } }, "404": { content: { "text/html": {} } } },
        },
      },
    });
    expect((await operation(d, "a")).accept).toBe("application/json, application/xml");
    expect((await operation(doc({ "/a": { get: { operationId: "a" } } }), "a")).accept).toBe("application/json, */*;q=0.5");
  });

  describe("circular schemas", () => {
    const tree = withBody({
      "application/json": { schema: { $ref: "#/components/schemas/Node" } },
    });
    tree.components = {
      schemas: {
        Node: { type: "object", required: ["name"], properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Node" } } } },
      },
    };

    it("moves a recursive type into $defs and keeps it exact", async () => {
      const op = await operation(tree, "op");
      expect(op.inputSchema.properties).toEqual({ body: { $ref: "#/$defs/Node" } });
      expect(op.inputSchema.$defs).toEqual({
        Node: { type: "object", required: ["name"], properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } } },
      });
      const validate = ajv().compile(op.inputSchema);
      expect(validate({ body: { name: "a", children: [{ name: "b", children: [{ name: "c" }] }] } })).toBe(true);
      expect(validate({ body: { name: "a", children: [{ name: "b", children: [{ nom: "c" }] }] } })).toBe(false);
    });

    it("refuses a schema that multiplies past the node limit", async () => {
      const schemas: Record<string, unknown> = { S0: { type: "string" } };
      for (let i = 1; i <= 14; i++) schemas[`S${i}`] = { type: "object", properties: { a: { $ref: `#/components/schemas/S${i - 1}` }, b: { $ref: `#/components/schemas/S${i - 1}` } } };
      const d = withBody({ "application/json": { schema: { $ref: "#/components/schemas/S14" } } });
      d.components = { schemas };
      const deref = await dereference(d);
      expect(() => buildOperations(deref, ["op"], { maxSchemaNodes: 10_000 })).toThrow("larger than 10000 schema nodes");
    });
  });
});
