// Format section 8 read to the letter: whole-value placeholders load, and
// checks stricter than the format are warnings (the file loads) rather than
// refusals. Each warning here names a likely mistake the format allows.
import { describe, expect, it } from "vitest";
import { StepfileInvalid } from "../../src/errors.js";
import { fillPlaceholders } from "../../src/format/placeholders.js";
import { loadStepfileText } from "../../src/loader/load.js";

const head = `stepgate: "1"
id: demo
inputs: { type: object, properties: { name: { type: string } } }
`;
const agent = (id: string, instructions: string) => `  - id: ${id}
    instructions: ${JSON.stringify(instructions)}
    produces: { type: object }
    gates: [{ id: ok, schema: { type: object } }]
`;

function issuesOf(text: string): string[] {
  try {
    loadStepfileText(text, "demo.stepfile.yaml");
  } catch (error) {
    expect(error).toBeInstanceOf(StepfileInvalid);
    return (error as StepfileInvalid).issues.map((i) => `${i.path}: ${i.message}`);
  }
  throw new Error("expected StepfileInvalid");
}

function warningsOf(text: string): string[] {
  return loadStepfileText(text, "demo.stepfile.yaml").warnings.map((w) => `${w.path}: ${w.message}`);
}

describe("whole-value placeholders", () => {
  it("loads {{inputs}} and {{steps.<id>}} and fills them as indented JSON", () => {
    const loaded = loadStepfileText(`${head}steps:\n${agent("a", "All inputs: {{inputs}}")}${agent("b", "Earlier: {{ steps.a }}")}`, "demo");
    expect(loaded.warnings).toEqual([]);
    expect(fillPlaceholders("All inputs: {{inputs}}", { inputs: { name: "Zoë" }, steps: {} })).toEqual({ text: 'All inputs: {\n  "name": "Zoë"\n}' });
    expect(fillPlaceholders("Earlier: {{ steps.a }}", { inputs: {}, steps: { a: { n: [1] } } })).toEqual({ text: 'Earlier: {\n  "n": [\n    1\n  ]\n}' });
    // A skipped step has no output: the value is missing at run time.
    expect(fillPlaceholders("{{steps.a}}", { inputs: {}, steps: {} })).toEqual({ missing: "steps.a" });
  });

  it("still refuses {{steps}} alone, another root, an empty segment and a later step", () => {
    const issues = issuesOf(`${head}steps:\n${agent("a", "{{steps}} {{output.x}} {{inputs..name}} {{steps.b}}")}${agent("b", "x")}`);
    expect(issues).toEqual([
      "steps[0].instructions: placeholder {{steps}} must name a step: {{steps.<id>}} or {{steps.<id>.<path>}}",
      "steps[0].instructions: placeholder {{output.x}} must be {{inputs...}} or {{steps.<id>...}}",
      "steps[0].instructions: placeholder {{inputs..name}} has an empty path segment",
      "steps[0].instructions: placeholder {{steps.b}} names b, which is not an earlier step",
    ]);
  });
});

describe("checks stricter than the format are warnings", () => {
  it("loads gate and call ids, let names and messages the format gives no pattern, warning only where nothing could name them", () => {
    const text = `${head}tools:
  api:
    openapi:
      server: http://127.0.0.1:9/v1
      document: { openapi: 3.1.0, paths: { /x: { get: { operationId: getX, responses: { "200": { description: ok } } } } } }
    exposes: [getX]
steps:
  - id: fetch
    do:
      calls:
        - { id: getX_first, operation: getX }
        - { id: "dotted.id", operation: getX }
      output: { got: { var: responses.getX_first } }
    produces: { type: object }
  - id: ask
    instructions: ""
    tools: [getX, getX]
    produces: { type: object }
    let: { "Max Count": 3, "a.b": 1 }
    gates:
      - { id: Checks_Out, message: "", predicate: { "==": [1, 1] } }
      - { id: produces, schema: { type: object } }
      - { id: s, schema: { type: object }, message: ignored, explain: { var: x } }
`;
    // Listed by line and column, as a linter lists findings.
    expect(warningsOf(text)).toEqual([
      'steps[0].do.calls[1].id: no responses.<id> path can read a call with id "dotted.id" (empty, or with a dot)',
      "steps[1].instructions: the instructions are empty, so the agent is told nothing",
      "steps[1].tools[1]: getX is listed more than once",
      'steps[1].let["a.b"]: no let.<name> path can read a let entry named "a.b" (empty, or with a dot)',
      "steps[1].gates[0].message: the message is empty, so a failure explains nothing",
      "steps[1].gates[1].id: gate id produces is also the name Stepgate reports its own produces check under, so the two cannot be told apart",
      "steps[1].gates[2].message: message belongs to predicate gates; a schema gate ignores it",
      "steps[1].gates[2].explain: explain belongs to predicate gates; a schema gate ignores it",
    ]);
  });

  it("warns about an empty exposes, user information in a URL, schema_sha256 on OpenAPI, item outside each and an unknown sort_by direction", () => {
    const text = `${head}tools:
  api:
    openapi:
      server: https://user@api.example.com/v1
      document: { openapi: 3.1.0, paths: { /x: { get: { operationId: getX, responses: { "200": { description: ok } } } } } }
    exposes: [{ name: getX, schema_sha256: "sha256:${"0".repeat(64)}" }]
  empty:
    mcp: { url: https://mcp.example.com/mcp }
    exposes: []
steps:
  - id: fetch
    do:
      calls: [{ id: x, operation: getX }]
      output: { a: { var: item.name }, b: { sort_by: [[], id, sideways] } }
    produces: { type: object }
`;
    expect(warningsOf(text)).toEqual([
      "tools.api.openapi.server: the user information in this URL (user@) is never sent; a secret belongs in a credential",
      "tools.api.exposes[0].schema_sha256: schema_sha256 pins only MCP tools; on an openapi tool it is ignored",
      "tools.empty.exposes: exposes is empty, so this mcp tool offers no operation",
      'steps[0].do.output.a.var: "item.name": item is bound only in the arguments of a call with each; here it reads nothing',
      'steps[0].do.output.b.sort_by[2]: the direction is "asc" or "desc"; with "sideways" sort_by gives null',
    ]);
  });

  it("lets a setting name the host of a fetched document's url, and counts it as used", () => {
    const text = `${head}settings:
  site: { description: "" }
tools:
  api:
    openapi:
      server: https://{site}.example.com/v1
      url: https://{site}.example.com/openapi.json
      sha256: "sha256:${"a".repeat(64)}"
    exposes: [getX]
steps:
${agent("a", "hi")}`;
    expect(warningsOf(text)).toEqual(["settings.site.description: the description is empty, so an operator is not told what value to give"]);
    // Never in its path, as for every tool URL.
    expect(issuesOf(text.replace("/openapi.json", "/{site}/openapi.json"))).toEqual([
      "tools.api.openapi.url: settings may appear only in the host or port of a URL, never in its path",
    ]);
  });
});
