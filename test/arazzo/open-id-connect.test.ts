// An OpenAPI openIdConnect security scheme becomes an oauth2 credential
// (docs/arazzo.md, the mapping): its access token is an OAuth 2.0 bearer
// token, which the OpenAPI tool sends as `Authorization: Bearer`.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { convertDocument } from "../../src/arazzo/convert.js";
import { readArazzo } from "../../src/arazzo/document.js";
import { stepfileText } from "../../src/arazzo/write.js";
import { loadStepfileText } from "../../src/loader/load.js";

const ok = { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } };
const api = {
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  servers: [{ url: "https://api.example.com" }],
  components: { securitySchemes: { corpId: { type: "openIdConnect", openIdConnectUrl: "https://id.example.com/.well-known/openid-configuration" } } },
  paths: {
    "/reports": { get: { operationId: "listReports", security: [{ corpId: ["openid", "reports.read"] }], responses: ok } },
    "/me": { get: { operationId: "me", security: [{ corpId: [] }], responses: ok } },
  },
};

async function convert(workflow: string) {
  const dir = mkdtempSync(join(tmpdir(), "stepgate-arazzo-oidc-"));
  writeFileSync(join(dir, "api.json"), JSON.stringify(api));
  const text = `arazzo: 1.0.1
info: { title: t, version: "1" }
sourceDescriptions:
  - { name: api, url: ./api.json, type: openapi }
workflows:
${workflow}`;
  return convertDocument(readArazzo(text, "w.arazzo.yaml"), { documentPath: join(dir, "w.arazzo.yaml") });
}

describe("an openIdConnect security scheme", () => {
  it("is an oauth2 credential with the scopes the operation asks for, naming the provider, and the stepfile loads clean", async () => {
    const c = await convert(`  - workflowId: reports
    steps:
      - { stepId: list, operationId: listReports }
`);
    expect(c.refused).toEqual([]);
    const stepfile = c.converted[0]!.stepfile as { credentials: object; tools: Record<string, { credential?: string }> };
    expect(stepfile.credentials).toEqual({
      "corp-id": { kind: "oauth2", scopes: ["openid", "reports.read"], hosts: ["api.example.com"], description: "The corpId credential (openIdConnect) of api, sent only to api.example.com: an access token from the OpenID provider described at https://id.example.com/.well-known/openid-configuration" },
    });
    expect(stepfile.tools.api!.credential).toBe("corp-id");
    expect(loadStepfileText(stepfileText(stepfile), "reports").warnings).toEqual([]);
  });

  it("asks for openid when the requirement lists no scopes, and drops the input an x-security naming it reads", async () => {
    const c = await convert(`  - workflowId: whoAmI
    inputs: { type: object, properties: { token: { type: string } } }
    x-security:
      - schemeName: corpId
        values: { accessToken: $inputs.token }
    steps:
      - { stepId: me, operationId: me }
`);
    expect(c.refused).toEqual([]);
    const stepfile = c.converted[0]!.stepfile as { inputs: { properties: object }; credentials: Record<string, { kind: string; scopes: string[] }> };
    expect(stepfile.credentials["corp-id"]).toMatchObject({ kind: "oauth2", scopes: ["openid"] });
    expect(stepfile.inputs.properties).toEqual({});
  });

  it("takes an Authorization parameter's place, as for oauth2: the held credential goes there, with a warning", async () => {
    const c = await convert(`  - workflowId: reports
    steps:
      - stepId: list
        operationId: listReports
        parameters:
          - { name: Authorization, in: header, value: Bearer written-in-the-document }
`);
    expect(c.refused).toEqual([]);
    expect(JSON.stringify(c.converted[0]!.stepfile)).not.toContain("written-in-the-document");
    expect(c.notes.map((n) => n.rule)).toEqual(["arazzo-credential-parameter"]);
    expect(c.notes[0]!.message).toContain("Stepgate sends the credential corp-id there, read from CORP_ID_API_KEY");
  });
});
