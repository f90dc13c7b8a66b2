// The converter that writes each provider's description.json
// (test/catalog/contracts/keep.ts, from-proto.ts): what it keeps, what it
// drops, and how Swagger 2.0, discovery, .proto and WADL sources come out in
// OpenAPI 3's shape. The kept files are written once, so a converter that
// went wrong would otherwise show only when a provider is re-kept.
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/format/json-pointer.js";
import { fromProto } from "./contracts/from-proto.js";
import { fromWadl } from "./contracts/from-wadl.js";
import { fromDiscovery, fromSwagger2, keep } from "./contracts/keep.js";

describe("keep.ts", () => {
  it("keeps the named operations and the schemas they reach, and no prose; a field named description stays", () => {
    const doc: JsonObject = {
      openapi: "3.0.0",
      paths: {
        "/items/{id}": {
          parameters: [{ name: "id", in: "path", required: true, description: "the id", schema: { type: "string" } }],
          get: {
            operationId: "getItem",
            summary: "Get",
            tags: ["Items"],
            "x-internal": true,
            responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } } } },
          },
        },
        "/other": { get: { operationId: "other", responses: {} } },
      },
      components: {
        schemas: {
          Item: { type: "object", description: "An item", example: {}, properties: { description: { type: "string", description: "its text" }, tag: { $ref: "#/components/schemas/Tag" } } },
          Tag: { type: "string", enum: ["a", "b"] },
          Unused: { type: "object" },
        },
      },
    };
    expect(keep(doc, [{ method: "get", path: "/items/{id}" }])).toEqual({
      openapi: "3.0.0",
      paths: {
        "/items/{id}": {
          get: {
            operationId: "getItem",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } } } },
          },
        },
      },
      components: {
        schemas: {
          Item: { type: "object", properties: { description: { type: "string" }, tag: { $ref: "#/components/schemas/Tag" } } },
          Tag: { type: "string", enum: ["a", "b"] },
        },
      },
    });
    expect(() => keep(doc, [{ method: "post", path: "/items/{id}" }])).toThrow("the description has no POST /items/{id}");
  });

  it("keeps a response's JSON bodies, +json types included, and drops an Atom one with the schemas only it reaches", () => {
    const doc: JsonObject = {
      openapi: "3.0.3",
      paths: { "/alerts/active": { get: { operationId: "alerts_active", responses: { "200": { $ref: "#/components/responses/AlertCollection" } } } } },
      components: {
        responses: {
          AlertCollection: {
            description: "A collection of alerts.",
            headers: { "X-Request-Id": { $ref: "#/components/headers/RequestId" } },
            content: {
              "application/geo+json": { schema: { $ref: "#/components/schemas/Geo" } },
              "application/ld+json": { schema: { $ref: "#/components/schemas/Ld" } },
              "application/atom+xml": { schema: { $ref: "#/components/schemas/Atom" } },
            },
          },
        },
        schemas: { Geo: { type: "object" }, Ld: { type: "object" }, Atom: { type: "object" } },
      },
    };
    const kept = keep(doc, [{ method: "get", path: "/alerts/active" }]);
    expect(kept.components).toEqual({
      responses: { AlertCollection: { content: { "application/geo+json": { schema: { $ref: "#/components/schemas/Geo" } }, "application/ld+json": { schema: { $ref: "#/components/schemas/Ld" } } } } },
      schemas: { Geo: { type: "object" }, Ld: { type: "object" } },
    });
  });

  it("converts Swagger 2.0: body to requestBody, type keywords into schema, definitions to components, basePath onto paths", () => {
    const converted = fromSwagger2({
      swagger: "2.0",
      basePath: "/api",
      paths: {
        "/q": {
          post: {
            operationId: "query",
            parameters: [
              { name: "body", in: "body", required: true, schema: { $ref: "#/definitions/Query" } },
              { name: "ids", in: "query", type: "array", items: { type: "string" }, collectionFormat: "multi" },
              { name: "limit", in: "query", type: "integer", maximum: 100, default: 10 },
            ],
            responses: { "200": { description: "ok", schema: { $ref: "#/definitions/Result" } } },
          },
        },
      },
      definitions: { Query: { type: "object", properties: { q: { type: "string" } } }, Result: { type: "object" } },
    });
    expect((converted.paths as JsonObject)["/api/q"]).toEqual({
      post: {
        operationId: "query",
        parameters: [
          { name: "ids", in: "query", schema: { type: "array", items: { type: "string" } }, style: "form", explode: true },
          { name: "limit", in: "query", schema: { type: "integer", maximum: 100, default: 10 } },
        ],
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Query" } } } },
        responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Result" } } } } },
      },
    });
    expect(((converted.components as JsonObject).schemas as JsonObject).Query).toEqual({ type: "object", properties: { q: { type: "string" } } });
  });

  it("converts a discovery method to the operation at servicePath + flatPath, named by its id", () => {
    const converted = fromDiscovery({
      servicePath: "",
      resources: {
        rows: {
          methods: {
            query: {
              id: "svc.rows.query",
              httpMethod: "POST",
              path: "v1/sites/{+site}/rows",
              flatPath: "v1/sites/{site}/rows",
              parameters: { site: { location: "path", required: true, type: "string" }, tag: { location: "query", type: "string", repeated: true } },
              request: { $ref: "RowsRequest" },
              response: { $ref: "RowsResponse" },
            },
          },
        },
      },
      schemas: { RowsRequest: { id: "RowsRequest", type: "object", properties: { kind: { type: "string", enum: ["A_B"], enumDescriptions: [""] } } }, RowsResponse: { id: "RowsResponse", type: "object" } },
    });
    expect((converted.paths as JsonObject)["/v1/sites/{site}/rows"]).toEqual({
      post: {
        operationId: "svc.rows.query",
        parameters: [
          { name: "site", in: "path", required: true, schema: { type: "string" } },
          { name: "tag", in: "query", schema: { type: "array", items: { type: "string" } } },
        ],
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/RowsRequest" } } } },
        responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/RowsResponse" } } } } },
      },
    });
    expect(((converted.components as JsonObject).schemas as JsonObject).RowsRequest).toEqual({ type: "object", properties: { kind: { type: "string", enum: ["A_B"] } } });
  });

  it("converts a .proto service: http paths and fields in proto3 JSON names, enums by value name, 64-bit integers as strings", () => {
    const converted = fromProto(`
      syntax = "proto3";
      // A comment { with braces }
      enum System { SYSTEM_UNSPECIFIED = 0; NPM = 3; }
      message PackageKey { System system = 1; string name = 2; }
      message GetPackageRequest { PackageKey package_key = 1; }
      message Package {
        PackageKey package_key = 1;
        message Version { bool is_default = 2; int64 size_bytes = 3; google.protobuf.Timestamp published_at = 4; }
        repeated Version versions = 2;
        map<string, string> labels = 3;
      }
      service Insights {
        rpc GetPackage(GetPackageRequest) returns (Package) {
          option (google.api.http) = { get: "/v3/systems/{package_key.system}/packages/{package_key.name}" };
        }
      }`);
    expect(converted.paths).toEqual({
      "/v3/systems/{packageKey.system}/packages/{packageKey.name}": {
        get: {
          operationId: "GetPackage",
          parameters: [
            { name: "packageKey.system", in: "path", required: true, schema: { $ref: "#/components/schemas/System" } },
            { name: "packageKey.name", in: "path", required: true, schema: { type: "string" } },
          ],
          responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Package" } } } } },
        },
      },
    });
    const schemas = (converted.components as JsonObject).schemas as JsonObject;
    expect(schemas.System).toEqual({ type: "string", enum: ["SYSTEM_UNSPECIFIED", "NPM"] });
    expect(schemas.Package).toEqual({
      type: "object",
      properties: {
        packageKey: { $ref: "#/components/schemas/PackageKey" },
        versions: { type: "array", items: { $ref: "#/components/schemas/Package.Version" } },
        labels: { type: "object", additionalProperties: { type: "string" } },
      },
    });
    expect(schemas["Package.Version"]).toEqual({
      type: "object",
      properties: { isDefault: { type: "boolean" }, sizeBytes: { type: "string", format: "int64" }, publishedAt: { type: "string", format: "date-time" } },
    });
  });
  it("converts a WADL: resources under the base as paths, params by style with XML Schema types, options as enums, defaults typed", () => {
    const converted = fromWadl(`<?xml version="1.0"?>
<application xmlns="http://wadl.dev.java.net/2009/02" xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <resources base="BASEURL">
    <resource path="version"><method id="version" name="GET"><response status="200"><representation mediaType="text/plain"/></response></method></resource>
    <resource path="items">
      <method id="list" name="GET">
      <request>
        <param name="since" style="query" type="xs:dateTime"/>
        <param name="min" style="query" type="xs:double" default="-90"/>
        <param name="limit" style="query" type="xs:integer" required="true"/>
        <param name="full" style="query" type="xs:boolean" default="false"/>
        <!-- extensions -->
        <param name="order" style="query" default="time"><option value="time"/><option value="size"/></param>
        <param name="callback" style="query" mediaType="text/javascript"/>
      </request>
      <response status="200"><representation mediaType="application/xml"/><representation mediaType="application/json"/></response>
      </method>
      <resource path="{id}"><method id="get" name="GET"><request><param name="id" style="template" type="xs:string"/></request></method></resource>
    </resource>
  </resources>
</application>`);
    expect(converted).toEqual({
      openapi: "3.0.0",
      paths: {
        "/version": { get: { operationId: "version", parameters: [], responses: { "200": { content: { "text/plain": {} } } } } },
        "/items": {
          get: {
            operationId: "list",
            parameters: [
              { name: "since", in: "query", schema: { type: "string", format: "date-time" } },
              { name: "min", in: "query", schema: { type: "number", default: -90 } },
              { name: "limit", in: "query", required: true, schema: { type: "integer" } },
              { name: "full", in: "query", schema: { type: "boolean", default: false } },
              { name: "order", in: "query", schema: { type: "string", enum: ["time", "size"], default: "time" } },
              { name: "callback", in: "query", schema: { type: "string" } },
            ],
            responses: { "200": { content: { "application/xml": {}, "application/json": {} } } },
          },
        },
        "/items/{id}": { get: { operationId: "get", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: {} } },
      },
    });
    // Kept as any other description: the JSON media type stays, without a schema.
    expect((keep(converted, [{ method: "get", path: "/items" }]).paths as JsonObject)["/items"]).toEqual({
      get: { operationId: "list", parameters: (((converted.paths as JsonObject)["/items"] as JsonObject).get as JsonObject).parameters, responses: { "200": { content: { "application/json": {} } } } },
    });
  });
});
