// Redocly's x-security extension naming a security scheme no source
// description declares (a typo, or a scheme of another API) is refused,
// naming the scheme, where it is written and the nearest declared names,
// instead of being dropped so the call goes out without that credential
// (docs/arazzo.md, "What is refused"). In process, then through the built
// CLI's --check, which reports it at the step's line:column.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { convertDocument, type Conversion } from "../../src/arazzo/convert.js";
import { readArazzo } from "../../src/arazzo/document.js";
import { refusalLine } from "../../src/arazzo/refusals.js";
import { stepgate } from "../offline/cli.js";
import { REPO_ROOT } from "../support/paths.js";

const FIXTURES = join(REPO_ROOT, "test", "arazzo", "fixtures");

/** A document over the fixtures' store.openapi.json (which declares the apiKey scheme storeKey). */
const documentWith = (workflows: string) => `arazzo: 1.0.1
info: { title: Keyed, version: 1.0.0 }
sourceDescriptions:
  - { name: store, url: ./store.openapi.json, type: openapi }
workflows:
${workflows}`;

const readOrder = (extra = "") => `      - stepId: read
        operationId: getOrder
        parameters:
          - { name: orderId, in: path, value: ord-1 }
${extra}`;

async function convert(workflows: string): Promise<Conversion> {
  return convertDocument(readArazzo(documentWith(workflows), "keyed.arazzo.yaml"), { documentPath: join(FIXTURES, "keyed.arazzo.yaml") });
}
const refusals = (c: Conversion) => c.refused.map(refusalLine);

describe("an x-security entry's schemeName", () => {
  it("that no source declares is refused at the workflow, naming the scheme and the nearest declared one", async () => {
    const c = await convert(`  - workflowId: keyed
    inputs: { type: object, properties: { key: { type: string } } }
    x-security:
      - schemeName: storekey
        values: { apiKey: $inputs.key }
    steps:
${readOrder()}`);
    expect(refusals(c)).toEqual([
      "workflow keyed: x-security[0] (schemeName storekey): no source description declares the security scheme storekey under components.securitySchemes (they declare storeKey), so the calls would go out without the credential it names; to convert it, name the scheme as a source declares it: storeKey",
    ]);
  });

  it("is refused at the step that writes it, and with no near name lists the declared ones", async () => {
    const c = await convert(`  - workflowId: keyed
    steps:
${readOrder(`        x-security:
          - schemeName: storeKey
            values: { apiKey: k }
          - schemeName: partnerOauth
            values: { accessToken: t }
`)}`);
    expect(refusals(c)).toEqual([
      "workflow keyed, step read: x-security[1] (schemeName partnerOauth): no source description declares the security scheme partnerOauth under components.securitySchemes (they declare storeKey), so the calls would go out without the credential it names; to convert it, name one of storeKey, or declare partnerOauth in the OpenAPI document",
    ]);
  });

  it("that a source declares converts, as does an inline scheme, and the other workflows convert beside a refused one", async () => {
    const c = await convert(`  - workflowId: declared
    x-security:
      - schemeName: storeKey
        values: { apiKey: k }
    steps:
${readOrder(`        x-security:
          - scheme: { type: apiKey, in: header, name: X-Other }
            values: { apiKey: k }
`)}  - workflowId: mistyped
    steps:
${readOrder(`        x-security:
          - { schemeName: store-key, values: { apiKey: k } }
`)}`);
    expect(c.converted.map((w) => w.workflowId)).toEqual(["declared"]);
    expect(refusals(c)).toEqual([expect.stringMatching(/^workflow mistyped, step read: x-security\[0\] \(schemeName store-key\): .*; to convert it, name the scheme as a source declares it: storeKey$/)]);
  });
});

describe("stepgate --check of a document whose step's x-security names an undeclared scheme", () => {
  const dir = mkdtempSync(join(tmpdir(), "stepgate-arazzo-x-security-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reports the refusal as arazzo-unconvertible at the step's line:column", async () => {
    copyFileSync(join(FIXTURES, "store.openapi.json"), join(dir, "store.openapi.json"));
    const document = join(dir, "keyed.arazzo.yaml");
    // The step is at line 8, column 9.
    writeFileSync(
      document,
      documentWith(`  - workflowId: keyed
    steps:
${readOrder(`        x-security:
          - { schemeName: storeKye, values: { apiKey: k } }
`)}`),
    );
    const run = await stepgate("--check", document);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain(
      "keyed.arazzo.yaml:8:9: error: workflows[0].steps[0]: refused: workflow keyed, step read: x-security[0] (schemeName storeKye): no source description declares the security scheme storeKye under components.securitySchemes (they declare storeKey), so the calls would go out without the credential it names; to convert it, name the scheme as a source declares it: storeKey [arazzo-unconvertible]\n",
    );
  }, 30_000);
});
