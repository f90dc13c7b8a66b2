// Real-world documents from @readme/oas-examples: every operation must build
// into a JSON-serialisable, compilable input schema, and requests built from
// arguments generated from that schema must stay on the server.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { ApiDocumentInvalid } from "../../src/errors.js";
import { buildOperations, buildRequest, dereference, loadOperations, type OperationSpec } from "../../src/tools/openapi/index.js";
import { mediaKind } from "../../src/format/json-pointer.js";

const examples = dirname(createRequire(import.meta.url).resolve("@readme/oas-examples/package.json"));
const read = (file: string) => JSON.parse(readFileSync(join(examples, file), "utf8")) as Record<string, unknown>;
const BASE = "https://api.example.com/base/v1";
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

const DOCUMENTS = [
  "3.0/json/petstore.json",
  "3.0/json/petstore-expanded.json",
  "3.0/json/circular.json",
  "3.0/json/circular-paths.json",
  "3.0/json/circular-request-bodies.json",
  "3.0/json/schema-circular.json",
  "3.0/json/complex-nesting.json",
  "3.0/json/parameters-style.json",
  "3.0/json/parameters-common.json",
  "3.0/json/parameters-cookies.json",
  "3.0/json/security.json",
  "3.0/json/security-multiple.json",
  "3.0/json/request-examples.json",
  "3.0/json/schema-types.json",
  "3.0/json/schema-enums.json",
  "3.0/json/discriminators.json",
  "3.0/json/polymorphism.json",
  "3.0/json/readme-legacy.json",
  "3.0/json/star-trek.json",
  "3.1/json/petstore.json",
  "3.1/json/parameters-style.json",
  "3.1/json/security.json",
  "3.1/json/schema-types.json",
  "3.1/json/schema-validation-local.json",
  "3.1/json/train-travel.json",
  "3.1/json/readme.json",
];

/**
 * The document's operations; many example documents leave out operationIds,
 * so those get a made-up one (the method and path) to be built as well.
 */
function operationIds(document: Record<string, unknown>): { ids: string[]; refusedBodies: string[] } {
  const ids: string[] = [];
  const refusedBodies: string[] = [];
  let n = 0;
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Record<string, unknown>>>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      op.operationId ??= `${method} ${path} #${++n}`;
      const id = op.operationId as string;
      ids.push(id);
      // Bodies Stepgate cannot send (multipart, binary) refuse the operation when required.
      const body = op.requestBody as { required?: boolean; content?: Record<string, unknown>; $ref?: string } | undefined;
      const types = Object.keys(body?.content ?? {});
      if (body?.required && types.length > 0 && !types.some((t) => mediaKind(t))) refusedBodies.push(id);
    }
  }
  return { ids, refusedBodies };
}

/** An argument value for `schema`, awkward on purpose where strings are free. */
function sample(schema: unknown, depth = 0): unknown {
  if (typeof schema !== "object" || schema === null || depth > 4) return "x";
  const s = schema as Record<string, unknown>;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  if (type === "integer") return 7;
  if (type === "number") return 1.5;
  if (type === "boolean") return true;
  if (type === "array") return [sample(s.items, depth + 1), sample(s.items, depth + 1)];
  if (type === "object") {
    const out: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries((s.properties as Record<string, unknown>) ?? {})) out[name] = sample(sub, depth + 1);
    return out;
  }
  return "a/../b ?#@%2F";
}

function sampleArguments(op: OperationSpec): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(op.inputSchema.properties as Record<string, unknown>)) {
    const value = sample(schema);
    // Values nested inside object parameters have no serialisation rule; keep them flat.
    const param = op.params.find((p) => p.argument === name);
    const flat = param && !param.contentType && typeof value === "object" && value !== null;
    args[name] = flat ? (Array.isArray(value) ? value.filter((v) => typeof v !== "object") : Object.fromEntries(Object.entries(value).filter(([, v]) => typeof v !== "object"))) : value;
    if (op.body?.kind === "text" && name === "body") args.body = "plain text";
  }
  return args;
}

describe.each(DOCUMENTS)("@readme/oas-examples %s", (file) => {
  it("builds every operation into a serialisable, valid input schema and sane requests", async () => {
    const raw = read(file);
    const { ids, refusedBodies } = operationIds(raw);
    const document = await dereference(raw);
    const ajv = new Ajv2020.default({ strict: false, logger: false });
    let built = 0;
    for (const id of ids) {
      if (refusedBodies.includes(id)) {
        expect(() => buildOperations(document, [id]), id).toThrow(ApiDocumentInvalid);
        continue;
      }
      const op = buildOperations(document, [id]).get(id)!;
      built++;
      expect(JSON.parse(JSON.stringify(op)), id).toEqual(op);
      expect(() => ajv.compile(op.inputSchema), id).not.toThrow();

      const args = sampleArguments(op);
      const request = buildRequest(op, BASE, args);
      const url = new URL(request.url);
      expect(url.origin, id).toBe("https://api.example.com");
      expect(url.pathname.startsWith("/base/v1/") || url.pathname === "/base/v1/", id).toBe(true);
      expect(url.pathname, id).not.toMatch(/[{}]|\/\.\.?(\/|$)/);
      expect(url.hash, id).toBe("");
      expect(request.method, id).toBe(op.method);
      for (const param of op.params) {
        const value = param.fixed ? param.fixed.value : args[param.argument];
        if (param.in === "query" && param.style === "form" && !param.contentType && (typeof value === "string" || typeof value === "number")) {
          expect(url.searchParams.get(param.name), `${id} ${param.name}`).toBe(String(value));
        }
      }
      if (op.body?.kind === "json" && args.body !== undefined) expect(JSON.parse(request.body!), id).toEqual(args.body);
    }
    expect(built).toBeGreaterThan(0);
  });
});

describe("@readme/oas-examples details", () => {
  it("bundles recursive request bodies into $defs that validate", async () => {
    const ops = buildOperations(await dereference(read("3.0/json/circular-request-bodies.json")), ["directCircular", "indirectCircular"]);
    const tree = ops.get("directCircular")!.inputSchema;
    expect(Object.keys(tree.$defs as object)).toEqual(["TreeNode"]);
    expect(JSON.stringify(tree)).toContain('"$ref":"#/$defs/TreeNode"');
    expect(Object.keys(ops.get("indirectCircular")!.inputSchema.$defs as object).sort()).toEqual(["Company", "Person"]);
  });

  it("places the credentials of the security examples", async () => {
    const document = read("3.1/json/security.json");
    const { ids } = operationIds(document);
    const ops = buildOperations(await dereference(document), ids);
    const placements = new Set([...ops.values()].flatMap((op) => (op.security ?? []).map((p) => p.in)));
    expect([...placements].sort()).toEqual(["basic", "bearer", "cookie", "header", "query"]);
  });

  it("loads a YAML document by URL with its digest", async () => {
    const bytes = new Uint8Array(readFileSync(join(examples, "3.1/yaml/train-travel.yaml")));
    const sha256 = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
    const ops = await loadOperations({ server: BASE, url: "https://example.com/train-travel.yaml", sha256 }, ["get-stations", "create-booking"], async () => bytes);
    expect(ops.get("get-stations")?.method).toBe("GET");
    expect(ops.get("create-booking")?.body).toEqual({ contentType: "application/json", kind: "json", required: true });
    expect(ops.get("create-booking")?.security).toEqual([{ in: "bearer" }]);
  });

  it("refuses the Swagger 2.0 petstore", async () => {
    await expect(dereference(read("2.0/json/petstore.json"))).rejects.toThrow("only OpenAPI 3.x");
  });
});
