// Two sourceDescriptions naming one OpenAPI document (docs/arazzo.md, the
// mapping): the document is loaded once and is one tool, each name resolves
// operationIds (qualified or bare) to it, and a --server given for one
// name sends that name's calls there, not where the other name's go.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { convertDocument } from "../../src/arazzo/convert.js";
import { readArazzo } from "../../src/arazzo/document.js";
import { refusalLine } from "../../src/arazzo/refusals.js";

const ok = { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } };
const api = {
  openapi: "3.1.0",
  info: { title: "shop", version: "1" },
  servers: [{ url: "https://shop.example.com" }],
  paths: { "/a": { get: { operationId: "getA", responses: ok } }, "/b": { get: { operationId: "getB", responses: ok } } },
};

async function convert(steps: string, servers?: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "stepgate-arazzo-two-names-"));
  writeFileSync(join(dir, "shop.json"), JSON.stringify(api));
  const text = `arazzo: 1.0.1
info: { title: t, version: "1" }
sourceDescriptions:
  - { name: shop, url: ./shop.json, type: openapi }
  - { name: store, url: shop.json, type: openapi }
workflows:
  - workflowId: w
    steps:
${steps}`;
  return convertDocument(readArazzo(text, "w.arazzo.yaml"), { documentPath: join(dir, "w.arazzo.yaml"), ...(servers ? { servers: new Map(Object.entries(servers)) } : {}) });
}

type Tools = Record<string, { openapi: { server: string }; exposes: string[] }>;
const toolsOf = (c: Awaited<ReturnType<typeof convert>>) => c.converted[0]!.stepfile.tools as Tools;

describe("two sourceDescription names for one OpenAPI document", () => {
  it("resolves each name's qualified operationIds, as one tool", async () => {
    const c = await convert(`      - { stepId: one, operationId: $sourceDescriptions.shop.getA }
      - { stepId: two, operationId: $sourceDescriptions.store.getB }
`);
    expect(c.refused.map(refusalLine)).toEqual([]);
    expect(Object.values(toolsOf(c)).map((t) => t.exposes)).toEqual([["getA", "getB"]]);
  });

  it("resolves a bare operationId both names define, since it is one operation", async () => {
    const c = await convert(`      - { stepId: one, operationId: getA }
`);
    expect(c.refused.map(refusalLine)).toEqual([]);
    expect(Object.values(toolsOf(c)).map((t) => t.exposes)).toEqual([["getA"]]);
  });

  it("sends a name's calls to the --server given for it, and the other's to the document's server", async () => {
    const c = await convert(
      `      - { stepId: one, operationId: $sourceDescriptions.shop.getA }
      - { stepId: two, operationId: $sourceDescriptions.store.getB }
`,
      { store: "https://store.example.com" },
    );
    expect(c.refused.map(refusalLine)).toEqual([]);
    expect(Object.values(toolsOf(c)).map((t) => [t.openapi.server, t.exposes])).toEqual([
      ["https://shop.example.com", ["getA"]],
      ["https://store.example.com", ["getB"]],
    ]);
  });
});
