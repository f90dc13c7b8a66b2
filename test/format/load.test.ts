import { describe, expect, it } from "vitest";
import { StepfileInvalid } from "../../src/errors.js";
import { loadStepfileText, loadStepfileTextDeferred } from "../../src/loader/load.js";

const valid = `stepgate: "1"
id: greet
inputs: { type: object, required: [name], properties: { name: { type: string } } }
steps:
  - id: hello
    instructions: "Greet {{inputs.name}}."
    produces: { type: object, required: [greeting], properties: { greeting: { type: string } } }
    gates:
      - { id: names-them, message: name them, predicate: { in: [{ var: inputs.name }, { var: output.greeting }] } }
`;

function issuesOf(text: string, file = "demo.stepfile.yaml") {
  try {
    loadStepfileText(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(StepfileInvalid);
    return (error as StepfileInvalid).issues;
  }
  throw new Error("expected StepfileInvalid");
}

describe("loading a stepfile", () => {
  it("loads a valid YAML stepfile and gives it an identity", () => {
    const loaded = loadStepfileText(valid, "greet.stepfile.yaml");
    expect(loaded.doc.id).toBe("greet");
    expect(loaded.identity).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Object.isFrozen(loaded.doc.steps[0])).toBe(true);
  });

  it("freezes a load for serving when it finishes, with the same document and identity as a full load", () => {
    const deferred = loadStepfileTextDeferred(valid, "greet.stepfile.yaml");
    expect(deferred.loaded.warnings).toEqual([]);
    deferred.finish();
    expect(Object.isFrozen(deferred.loaded.doc.steps[0])).toBe(true);
    expect(Object.isFrozen(deferred.loaded.compiled.steps[0])).toBe(true);
    expect(deferred.loaded.doc).toStrictEqual(loadStepfileText(valid, "greet.stepfile.yaml").doc);
    expect(deferred.loaded.identity).toBe(loadStepfileText(valid, "greet.stepfile.yaml").identity);
  });

  it("gives the YAML and JSON spellings of one document the same identity", () => {
    const yaml = loadStepfileText(valid, "a.yaml");
    const json = loadStepfileText(JSON.stringify(JSON.parse(JSON.stringify(yaml.doc)), null, 4), "a.json");
    expect(json.identity).toBe(yaml.identity);
  });

  it("changes identity when the document changes", () => {
    const other = loadStepfileText(valid.replace("Greet", "Welcome"), "b.yaml");
    expect(other.identity).not.toBe(loadStepfileText(valid, "a.yaml").identity);
  });

  it("refuses a typo'd field with its path and line", () => {
    const issues = issuesOf(valid.replace("    produces:", "    prodcues: { type: object }\n    produces:"));
    expect(issues).toContainEqual(expect.objectContaining({ path: "steps[0].prodcues", message: "unknown field prodcues", line: 7, column: 5 }));
  });

  it("refuses a wrong type with its path and line", () => {
    const issues = issuesOf(valid.replace("    gates:", "    retries: two\n    gates:"));
    expect(issues).toContainEqual(expect.objectContaining({ path: "steps[0].retries", message: "must be integer", line: 8 }));
  });

  it("refuses a duplicate step id and a placeholder naming a later step, each with its line", () => {
    const text = `stepgate: "1"
id: twice
inputs: { type: object }
steps:
  - id: one
    instructions: "Use {{steps.two.value}}"
    produces: { type: object }
    gates: [{ id: ok, schema: { type: object } }]
  - id: one
    instructions: again
    produces: { type: object }
    gates: [{ id: ok, schema: { type: object } }]
  - id: two
    instructions: last
    produces: { type: object }
    gates: [{ id: ok, schema: { type: object } }]
`;
    const issues = issuesOf(text);
    expect(issues).toContainEqual(expect.objectContaining({ path: "steps[1].id", line: 9, message: expect.stringContaining("used by an earlier step") }));
    expect(issues).toContainEqual(expect.objectContaining({ path: "steps[0].instructions", line: 6, message: expect.stringContaining("not an earlier step") }));
  });

  it("reports every issue at once, not only the first", () => {
    const issues = issuesOf(valid.replace('stepgate: "1"', 'stepgate: "2"').replace("id: greet", "id: Greet"));
    expect(issues.map((i) => i.path).sort()).toEqual(["id", "stepgate"]);
  });

  it("reports YAML syntax errors and duplicate keys with their line", () => {
    expect(issuesOf(`stepgate: "1"\nid: a\nid: b\n`)[0]).toMatchObject({ line: 3 });
    expect(issuesOf(`stepgate: "1"\n  bad: [\n`)[0]?.line).toBeGreaterThan(0);
  });

  it("checks cross-field rules", () => {
    const text = `stepgate: "1"
id: rules
inputs: { type: object }
credentials:
  api: { kind: bearer, hosts: [api.example.com], description: d, scopes: [x] }
settings:
  unused: { description: never used }
tools:
  one:
    openapi: { server: "http://example.com", document: { openapi: 3.1.0, paths: {} } }
    exposes: [getThing, submit]
    credential: api
  two:
    verifier: { url: "https://v.example.com/check" }
    exposes: [getThing]
steps:
  - id: s
    tools: [getOther]
    do: { output: {} }
    produces: { type: object }
    derive: { x: { var: output } }
  - id: t
    instructions: hi
    produces: { type: object, properties: { a: { type: string } } }
    derive: { b: { var: output.a } }
    gates:
      - { id: h, http: { tool: one } }
      - { id: p, predicate: { "==": [1, 1] } }
`;
    const messages = issuesOf(text).map((i) => `${i.path}: ${i.message}`);
    for (const expected of [
      "tools.one.exposes[1]: an exposed name may not be submit",
      "tools.two.exposes[0]: getThing is already exposed by tool one",
      "tools.one.openapi.server: plain http:// is allowed only for localhost, 127.0.0.1 and [::1]; use https://",
      "tools.two.exposes: a verifier exposes nothing",
      "credentials.api.scopes: scopes are only for oauth2 credentials, not bearer",
      "settings.unused: setting unused is declared but no tool URL or credential host uses it",
      "steps[0].tools: a mechanical step (with do) may not have tools",
      "steps[0].tools[0]: getOther is not exposed by any tool",
      "steps[1].derive.b: b is not a property of produces",
      "steps[1].gates[0].http.tool: one is not a verifier tool",
      "steps[1].gates[1]: a predicate gate needs a message",
    ]) {
      expect(messages).toContain(expected);
    }
  });

  it("checks settings: only in hosts, declared, and matched by the credential's hosts", () => {
    const text = `stepgate: "1"
id: settings
inputs: { type: object }
settings:
  site: { description: your site }
credentials:
  jira: { kind: basic, hosts: ["{site}.atlassian.net"], description: Jira }
tools:
  jira:
    openapi: { server: "https://{site}.atlassian.net/rest/{nope}", document: { openapi: 3.1.0, paths: {} } }
    credential: jira
    exposes: [getIssue]
steps:
  - id: s
    instructions: hi
    produces: { type: object }
    gates: [{ id: ok, schema: { type: object } }]
`;
    const messages = issuesOf(text).map((i) => `${i.path}: ${i.message}`);
    expect(messages).toContain("tools.jira.openapi.server: settings may appear only in the host or port of a URL, never in its path");
  });

  it("refuses expressions with unknown operators or extra keys", () => {
    const issues = issuesOf(valid.replace("predicate: { in:", "predicate: { nope:"));
    expect(issues[0]).toMatchObject({ path: "steps[0].gates[0].predicate.nope", message: expect.stringContaining('unknown operator "nope"'), line: 9 });
  });

  it("refuses a step reading a later step's output in an expression", () => {
    const issues = issuesOf(valid.replace("{ var: inputs.name }, { var: output.greeting }", "{ var: steps.later.x }, { var: output.greeting }"));
    expect(issues[0]).toMatchObject({ path: "steps[0].gates[0].predicate.in[0].var", message: expect.stringContaining('names step "later", which is not an earlier step') });
  });

  it("refuses a schema that is not valid JSON Schema", () => {
    const issues = issuesOf(valid.replace("properties: { greeting: { type: string } }", "properties: { greeting: { type: strin } }"));
    expect(issues[0]).toMatchObject({ path: "steps[0].produces", message: expect.stringContaining("not a valid JSON Schema") });
  });

  it("refuses absurdly deep documents instead of overflowing the stack", () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    expect(issuesOf(`stepgate: "1"\nid: deep\ninputs: ${deep}\n`)[0]?.message).toMatch(/nesting is deeper/);
  });
});
