// stepgate_validate and the draft rules stepgate_try applies.
import { describe, expect, it } from "vitest";
import { draftRuleBreaches, type DraftRuleContext } from "../../src/authoring/draft-rules.js";
import { hostProblem, publicHttpsUrl } from "../../src/authoring/public-url.js";
import { validateDraft } from "../../src/authoring/validate.js";
import type { StepfileDocument } from "../../src/format/types.js";

const rules = (over: Partial<DraftRuleContext> = {}): DraftRuleContext => ({ grants: { credentials: [], settings: [] }, env: {}, publicUrl: publicHttpsUrl, ...over });

const base = (extra: Partial<StepfileDocument>): StepfileDocument => ({
  stepgate: "1",
  id: "d",
  inputs: { type: "object" },
  steps: [{ id: "a", instructions: "x", produces: { type: "object" }, gates: [{ id: "g", schema: {} }] }],
  ...extra,
});

describe("stepgate_validate", () => {
  it("gives the id, identity, steps and try verdict of a draft that loads, and its TODO markers", () => {
    const v = validateDraft('stepgate: "1"\nid: d\ninputs: { type: object, description: "TODO: inputs" }\nsteps:\n  - { id: a, instructions: x, produces: { type: object }, gates: [{ id: g, message: m, predicate: "TODO: write" }] }\n', rules());
    expect(v).toMatchObject({ valid: true, id: "d", identity: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), steps: [{ id: "a", kind: "agent", tools: [], gates: [{ id: "g", kind: "predicate" }] }], try: { accepted: true, refusals: [] } });
    expect(v.todos).toEqual([
      { path: "inputs.description", text: "TODO: inputs", line: 3, column: 38 },
      { path: "steps[0].gates[0].predicate", text: "TODO: write", line: 5, column: 99 },
    ]);
  });

  it("lists every issue of a draft that does not load, with TODO markers still found", () => {
    const v = validateDraft('stepgate: "1"\nid: Bad_Id\ninputs: { type: object, description: "TODO: x" }\nsteps: []\n', rules());
    expect(v.valid).toBe(false);
    expect(v.issues.map((i) => i.path).sort()).toEqual(["id", "steps"]);
    expect(v.issues.every((i) => i.line !== undefined)).toBe(true);
    expect(v.todos).toHaveLength(1);
    expect(v.try.accepted).toBe(false);
  });

  it("reports a YAML syntax error with its line", () => {
    const v = validateDraft("stepgate: [\n", rules());
    expect(v.valid).toBe(false);
    expect(v.issues[0]!.line).toBeDefined();
  });
});

describe("draft rules", () => {
  const api = { openapi: { server: "https://api.example.com/v1", document: { openapi: "3.1.0", paths: {} } }, exposes: [] };

  it("accepts public https tools and credentials within their grant (default port or not)", () => {
    const doc = base({
      credentials: { key: { kind: "api_key", hosts: ["api.example.com:443"], description: "k" } },
      tools: { api: { ...api, credential: "key" }, check: { verifier: { url: "https://verify.example.org/check" } } },
    });
    expect(draftRuleBreaches(doc, rules({ grants: { credentials: [{ name: "key", hosts: ["api.example.com"] }], settings: [] } }))).toEqual([]);
  });

  it("checks every tool URL, the document url of an OpenAPI tool included", () => {
    const doc = base({
      tools: {
        api: { openapi: { server: "https://api.example.com", url: "https://192.168.0.2/openapi.json", sha256: `sha256:${"0".repeat(64)}` }, exposes: [] },
        mcp: { mcp: { url: "http://127.0.0.1:8080/mcp" }, exposes: [] },
        check: { verifier: { url: "https://[fe80::1]/v" } },
      },
    });
    const breaches = draftRuleBreaches(doc, rules());
    expect(breaches).toHaveLength(3);
    expect(breaches[0]).toContain("tool api: https://192.168.0.2/openapi.json");
  });

  it("fills granted settings from the environment before judging hosts", () => {
    const doc = base({
      settings: { site: { description: "s" } },
      credentials: { key: { kind: "bearer", hosts: ["{site}.example.com"], description: "k" } },
      tools: { api: { openapi: { server: "https://{site}.example.com/v1", document: { openapi: "3.1.0", paths: {} } }, exposes: [], credential: "key" } },
    });
    const granted = { credentials: [{ name: "key", hosts: ["acme.example.com"] }], settings: ["site"] };
    expect(draftRuleBreaches(doc, rules({ grants: granted, env: { SITE: "acme" } }))).toEqual([]);
    expect(draftRuleBreaches(doc, rules({ grants: granted, env: { SITE: "evil" } }))).toEqual([expect.stringContaining("lists host evil.example.com")]);
  });

  it("names every broken rule at once", () => {
    const doc = base({
      settings: { site: { description: "s" } },
      credentials: { key: { kind: "oauth2", hosts: ["api.example.com"], description: "k", scopes: ["r"], token_url: "https://auth.example.com/token" } },
      tools: { api: { ...api, credential: "key" } },
    });
    expect(draftRuleBreaches(doc, rules())).toEqual([expect.stringContaining("setting site is not granted"), expect.stringContaining("credential key is not granted")]);
    const granted = { credentials: [{ name: "key", hosts: ["api.example.com"] }], settings: ["site"] };
    expect(draftRuleBreaches(doc, rules({ grants: granted }))).toEqual([expect.stringContaining("has a token_url")]);
  });
});

describe("hostProblem", () => {
  it("lets public names and addresses through", () => {
    for (const host of ["api.example.com", "api.example.com.", "8.8.8.8", "[2606:4700::1111]", "172.32.0.1", "192.169.0.1"]) expect(hostProblem(host), host).toBeUndefined();
  });
  it("refuses loopback, private, link-local and local names", () => {
    for (const host of ["localhost", "api.localhost", "LOCALHOST.", "localhost..", "api..example.com", ".", "127.1.2.3", "0.0.0.0", "10.9.9.9", "172.31.255.255", "[::]", "[fc00::1]", "[febf::1]", "printer"]) expect(hostProblem(host), host).toBeDefined();
  });
});
