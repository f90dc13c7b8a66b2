// A secret an outer workflow passes into a workflow it inlines (a
// workflowId step) is the credential there, so the outer stepfile does not
// ask the agent for it either (docs/arazzo.md, the mapping): through a
// parameter that sets where the credential goes, and through Redocly's
// x-security, however deep the inlining.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { convertDocument } from "../../src/arazzo/convert.js";
import { readArazzo } from "../../src/arazzo/document.js";

const ok = { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { temp: { type: "number" } } } } } } };
const api = {
  openapi: "3.1.0",
  info: { title: "weather", version: "1" },
  servers: [{ url: "https://weather.example.com" }],
  components: { securitySchemes: { apiKeyQuery: { type: "apiKey", in: "query", name: "key" } } },
  security: [{ apiKeyQuery: [] }],
  paths: { "/point": { get: { operationId: "point", parameters: [{ name: "place", in: "query", required: true, schema: { type: "string" } }, { name: "key", in: "query", schema: { type: "string" } }], responses: ok } } },
};

async function convert(workflows: string) {
  const dir = mkdtempSync(join(tmpdir(), "stepgate-arazzo-inlined-secret-"));
  writeFileSync(join(dir, "weather.json"), JSON.stringify(api));
  const text = `arazzo: 1.0.1
info: { title: t, version: "1" }
sourceDescriptions:
  - { name: weather, url: ./weather.json, type: openapi }
workflows:
${workflows}`;
  const c = await convertDocument(readArazzo(text, "w.arazzo.yaml"), { documentPath: join(dir, "w.arazzo.yaml") });
  expect(c.refused).toEqual([]);
  return c;
}

const inner = `  - workflowId: readPoint
    inputs: { type: object, properties: { place: { type: string }, key: { type: string } }, required: [place, key] }
    steps:
      - stepId: read
        operationId: point
        parameters:
          - { name: place, in: query, value: $inputs.place }
          - { name: key, in: query, value: $inputs.key }
        outputs: { temp: $response.body#/temp }
    outputs: { temp: $steps.read.outputs.temp }
`;
const outer = (via: string) => `  - workflowId: forecast
    inputs: { type: object, properties: { city: { type: string }, apiKey: { type: string } }, required: [city, apiKey] }
    steps:
      - stepId: here
        workflowId: ${via}
        parameters:
          - { name: place, value: $inputs.city }
          - { name: key, value: $inputs.apiKey }
        outputs: { temp: $outputs.temp }
`;

const inputsOf = (c: Awaited<ReturnType<typeof convert>>, id: string) => c.converted.find((w) => w.workflowId === id)!.stepfile.inputs as { properties: object; required?: string[] };

describe("a secret input passed into an inlined workflow", () => {
  it("is dropped from the outer stepfile's inputs when it reaches a parameter the credential replaces", async () => {
    const c = await convert(inner + outer("readPoint"));
    expect(inputsOf(c, "forecast")).toEqual({ type: "object", properties: { city: { type: "string" } }, required: ["city"] });
    expect(JSON.stringify(c.converted.find((w) => w.workflowId === "forecast")!.stepfile)).not.toContain("inputs.apiKey");
    expect(inputsOf(c, "readPoint").properties).toEqual({ place: { type: "string" } });
  });

  it("is dropped two workflows deep, and when the inlined workflow's x-security reads it", async () => {
    const middle = `  - workflowId: middle
    inputs: { type: object, properties: { place: { type: string }, key: { type: string } } }
    steps:
      - stepId: go
        workflowId: readPoint
        parameters:
          - { name: place, value: $inputs.place }
          - { name: key, value: $inputs.key }
        outputs: { temp: $outputs.temp }
    outputs: { temp: $steps.go.outputs.temp }
`;
    const viaXSecurity = `  - workflowId: readPlain
    inputs: { type: object, properties: { place: { type: string }, key: { type: string } } }
    x-security:
      - schemeName: apiKeyQuery
        values: { apiKey: $inputs.key }
    steps:
      - stepId: read
        operationId: point
        parameters:
          - { name: place, in: query, value: $inputs.place }
        outputs: { temp: $response.body#/temp }
    outputs: { temp: $steps.read.outputs.temp }
`;
    const c = await convert(inner + middle + viaXSecurity + outer("middle") + outer("readPlain").replace("forecast", "forecastPlain"));
    expect(Object.keys(inputsOf(c, "forecast").properties)).toEqual(["city"]);
    expect(Object.keys(inputsOf(c, "forecastPlain").properties)).toEqual(["city"]);
  });

  it("stays an input when a converted step also sends it as an ordinary value", async () => {
    const alsoSent = `${outer("readPoint")}      - stepId: again
        operationId: point
        parameters:
          - { name: place, in: query, value: $inputs.apiKey }
`;
    const c = await convert(inner + alsoSent);
    expect(Object.keys(inputsOf(c, "forecast").properties)).toEqual(["city", "apiKey"]);
  });
});
