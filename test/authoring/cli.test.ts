// The authoring tools through the built CLI over stdio, driven by the SDK's
// client as a desktop client would: started with no stepfiles, an agent can
// read the guide and examples, outline a procedure, validate a draft, and try
// it to the end; drafts breaking a draft rule are refused before any request.
import { catalogEntries } from "../../src/cli/catalog.js";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { FOUR_MISTAKES } from "../support/lend-books.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

type Result = { content: Array<{ type: string; text: string }>; structuredContent: Record<string, unknown>; isError?: boolean };

const open: SpawnedStepgate[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function start(args: string[] = [], env: Record<string, string> = {}) {
  const stepgate = await spawnStepgate(args, env);
  open.push(stepgate);
  const call = async (name: string, args: Record<string, unknown> = {}) => (await stepgate.client.callTool({ name, arguments: args })) as Result;
  return { stepgate, call };
}

// A keyless stepfile, given as a draft's text: it never becomes a served tool.
const KEYLESS = readFileSync(new URL("../fixtures/greet.stepfile.yaml", import.meta.url), "utf8");

const AUTHORING = ["stepgate_guide", "stepgate_examples", "stepgate_outline", "stepgate_inspect_api", "stepgate_validate", "stepgate_try", "stepgate_test"];

function draftWith(extra: string, tool = "https://api.example.com/v1") {
  return `stepgate: "1"
id: draft
inputs: { type: object }
${extra}
tools:
  api:
    openapi: { server: "${tool}", document: { openapi: 3.1.0, info: { title: t, version: "1" }, paths: { /x: { get: { operationId: getX, responses: { "200": { description: ok } } } } } } }
    exposes: [getX]
steps:
  - id: a
    instructions: x
    tools: [getX]
    produces: { type: object }
    gates: [{ id: g, schema: {} }]
`;
}

describe("authoring through the CLI", () => {
  it("serves only the authoring tools and the run tools when started with no stepfiles", async () => {
    const { stepgate } = await start();
    const names = (await stepgate.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(["stepgate_call", "stepgate_submit", ...AUTHORING]);
  });

  it("serves the authoring tools beside served stepfiles", async () => {
    const { stepgate } = await start(["release-notes"]);
    const names = (await stepgate.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(["release-notes", "stepgate_call", "stepgate_submit", ...AUTHORING]);
  });

  it("gives the guide with the workflow, the format and an example in one reply of at most 12 KB, and each section on request", async () => {
    const { call } = await start();
    const guide = await call("stepgate_guide");
    expect(guide.content[0]!.text).toContain("stepgate_outline");
    expect((guide.structuredContent.workflow as string[]).map((s) => s.split(":")[0])).toEqual(["outline", "inspect_api", "write", "validate", "try", "test", "mutate", "save"]);
    expect(guide.content[0]!.text).toMatch(/## A complete stepfile\n```yaml\nstepgate: "1"\n[\s\S]*approve: [\s\S]*```$/);
    // The reply as the client receives it: text and data together.
    expect(Buffer.byteLength(JSON.stringify(guide))).toBeLessThanOrEqual(12 * 1024);
    for (const section of ["expressions", "operators", "schema"]) {
      const part = await call("stepgate_guide", { section });
      expect(part.structuredContent.section).toBe(section);
      expect(Buffer.byteLength(JSON.stringify(part)), section).toBeLessThanOrEqual(12 * 1024);
    }
    expect((await call("stepgate_guide", { section: "schema" })).structuredContent.schema).toMatchObject({ title: "Stepgate stepfile, format 1" });
    expect((await call("stepgate_guide", { section: "operators" })).content[0]!.text).toContain("| `results` |");
    const wrong = await call("stepgate_guide", { section: "everything" });
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0]!.text).toContain("one of expressions, operators, schema");
  });

  it("lists the catalog and reads one entry", async () => {
    const { call } = await start();
    const list = await call("stepgate_examples");
    const examples = list.structuredContent.examples as Array<{ name: string }>;
    expect(examples.map((e) => e.name).sort()).toEqual(catalogEntries().map((e) => e.name).sort());
    expect(examples).toContainEqual({ name: "release-notes", category: "writing", title: "Release notes from a list of changes", needs: [], approval: false });
    const one = await call("stepgate_examples", { name: "release-notes" });
    expect(one.structuredContent.stepfile).toContain("id: release-notes");
    expect(one.structuredContent.readme).toContain("# release-notes");
    const missing = await call("stepgate_examples", { name: "nope" });
    expect(missing.isError).toBe(true);
  });

  it("outlines markdown into a skeleton that validate reads, with its TODO markers", async () => {
    const { call } = await start();
    const outlined = await call("stepgate_outline", { markdown: "# Ship it\n\n1. Run the tests. You MUST NOT skip failing ones.\n2. Tag the release.\n" });
    const text = outlined.structuredContent.stepfile as string;
    // The editor line names the schema file this Stepgate ships, wherever it is installed, not a node_modules path it cannot know.
    const schema = /^# yaml-language-server: \$schema=(file:\S+)\n/.exec(text)?.[1];
    expect(schema).toBeDefined();
    expect(existsSync(fileURLToPath(schema!))).toBe(true);
    expect(fileURLToPath(schema!).endsWith(join("schema", "stepfile.schema.json"))).toBe(true);
    const validated = await call("stepgate_validate", { text });
    expect(validated.structuredContent).toMatchObject({ valid: true, id: "ship-it", try: { accepted: true } });
    expect((validated.structuredContent.todos as Array<{ path: string }>).map((t) => t.path)).toContain("steps[0].gates[0].predicate");
  });

  it("validates an invalid draft with every issue's path and line:column", async () => {
    const { call } = await start();
    const result = await call("stepgate_validate", { text: KEYLESS.replace("    retries: 1\n", "    retries: 9\n    gatez: []\n") });
    expect(result.structuredContent.valid).toBe(false);
    expect(result.structuredContent.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "steps[0].gatez", line: 10, column: 5 }),
        expect.objectContaining({ path: "steps[0].retries", line: 9 }),
      ]),
    );
    expect(result.content[0]!.text).toContain("line 10:5 steps[0].gatez");
  });

  it("leaves out the warnings of the rules given in ignore, as --check --ignore does, and refuses an id no warning has", async () => {
    const { call } = await start();
    // Two warnings of two rules (the draft check-sarif.test.ts lists too).
    const text = FOUR_MISTAKES[3]!.text.replace("results: [listBooks, books]", "results: [listBooks, items]");
    const rules = (result: Result) => ((result.structuredContent.warnings ?? []) as Array<{ rule: string }>).map((w) => w.rule);
    const all = await call("stepgate_validate", { text });
    expect(rules(all)).toEqual(["undeclared-path", "placeholder-shown-as-written"]);
    const one = await call("stepgate_validate", { text, ignore: ["undeclared-path"] });
    expect(one.isError).toBeFalsy();
    expect(rules(one)).toEqual(["placeholder-shown-as-written"]);
    expect(one.content[0]!.text).not.toContain("[undeclared-path]");
    expect(one.content[0]!.text).toContain("[placeholder-shown-as-written]");
    const none = await call("stepgate_validate", { text, ignore: ["undeclared-path", "placeholder-shown-as-written"] });
    expect(none.structuredContent).toMatchObject({ valid: true });
    expect(none.structuredContent.warnings).toBeUndefined();
    const unknown = await call("stepgate_validate", { text, ignore: ["undeclared-paths"] });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]!.text).toContain("undeclared-paths: no rule has this id; did you mean undeclared-path?");
    const refusal = await call("stepgate_validate", { text, ignore: ["structure"] });
    expect(refusal.isError).toBe(true);
    expect(refusal.content[0]!.text).toContain("structure is a refusal");
    expect((await call("stepgate_validate", { text, ignore: "undeclared-path" })).isError).toBe(true);
  });

  it("tries a keyless draft and finishes its run with stepgate_submit", async () => {
    const { stepgate, call } = await start();
    const started = await call("stepgate_try", { text: KEYLESS, inputs: { name: "Ada" } });
    expect(started.structuredContent).toMatchObject({ state: "running", step: { step: "hello" } });
    const run = started.structuredContent.run as string;
    const retry = await call("stepgate_submit", { run, output: { greeting: "Hello" } });
    expect(retry.structuredContent).toMatchObject({ state: "running", failures: [{ gate: "names-them" }] });
    const next = await call("stepgate_submit", { run, output: { greeting: "Hello Ada" } });
    expect(next.structuredContent).toMatchObject({ state: "running", step: { step: "sign" } });
    const done = await call("stepgate_submit", { run, output: { signature: "Bye" } });
    expect(done.structuredContent).toMatchObject({ state: "finished", outputs: { hello: { greeting: "Hello Ada" }, sign: { signature: "Bye" } } });
    // The draft is not served: the tool list is unchanged.
    expect((await stepgate.client.listTools()).tools.map((t) => t.name)).not.toContain("greet");
    expect(stepgate.stderr()).toContain('"type":"run_finished"');
  });

  it("answers StepfileInvalid for a draft that does not load", async () => {
    const { call } = await start();
    const result = await call("stepgate_try", { text: "stepgate: '1'\nid: x\n" });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^StepfileInvalid/);
    expect(result.structuredContent).toMatchObject({ state: "failed", error: "StepfileInvalid" });
  });

  describe("refuses drafts that break a draft rule (DraftRefused), naming the rule", () => {
    const credential = (hosts: string, more = "") => `credentials:\n  key: { kind: api_key, hosts: [${hosts}], description: a key${more} }\n`;
    const cases: Array<[string, string, string, string[]]> = [
      ["an undeclared credential", draftWith(credential("api.example.com")), "credential key is not granted", []],
      ["a host outside its grant", draftWith(credential("api.example.com, other.example.com")), "lists host other.example.com", ["--draft-credential", "key=api.example.com"]],
      ["a token_url", draftWith(`credentials:\n  key: { kind: oauth2, hosts: [api.example.com], description: a key, scopes: [read], token_url: "https://auth.example.com/token" }\n`), "has a token_url", ["--draft-credential", "key=api.example.com"]],
      ["an ungranted setting", draftWith("settings:\n  site: { description: the site }\n", "https://{site}.example.com/v1"), "setting site is not granted", []],
      ["an http:// URL", draftWith("", "http://localhost:9/v1"), "not a public https URL", []],
      ["a private IP", draftWith("", "https://10.1.2.3/v1"), "10.1.2.3 is a private address", []],
      ["a name without a dot", draftWith("", "https://intranet/v1"), "without a dot", []],
    ];
    it.each(cases)("%s", async (_, text, rule, args) => {
      const { call } = await start(args);
      const validated = await call("stepgate_validate", { text });
      expect(validated.structuredContent).toMatchObject({ valid: true, try: { accepted: false } });
      const result = await call("stepgate_try", { text });
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toMatch(/^DraftRefused: /);
      expect(result.content[0]!.text).toContain(rule);
      expect(result.structuredContent).toMatchObject({ state: "failed", error: "DraftRefused" });
    });
  });

  it("refuses to inspect URLs that are not public https (UrlNotPublic)", async () => {
    const { call } = await start();
    for (const url of ["http://api.example.com/openapi.json", "https://127.0.0.1:1/openapi.json", "https://192.168.0.10/mcp", "https://localhost/mcp"]) {
      const result = await call("stepgate_inspect_api", { url });
      expect(result.isError, url).toBe(true);
      expect(result.content[0]!.text, url).toMatch(/^UrlNotPublic: /);
      expect(result.structuredContent).toMatchObject({ error: "UrlNotPublic", details: { url } });
    }
  });

  it("answers a missing argument with a usage error", async () => {
    const { call } = await start();
    expect((await call("stepgate_outline")).isError).toBe(true);
    expect((await call("stepgate_validate", { text: 3 })).isError).toBe(true);
  });
});

// Issue 29: one call from any client must not stop or hold the server.
describe("the authoring tools, given input that once aborted or blocked the server", () => {
  const DEEP = `{"stepgate":"1","id":"d","inputs":${'{"a":'.repeat(1_000)}1${"}".repeat(1_000)},"steps":[]}`;

  it("answers a 1,000-deep JSON text in stepgate_validate, stepgate_try and stepgate_inspect_api, and goes on serving", async () => {
    const { call } = await start();
    const validated = await call("stepgate_validate", { text: DEEP });
    expect(validated.content[0]!.text).toContain("nesting is deeper than 128 levels");
    const tried = await call("stepgate_try", { text: DEEP });
    expect(tried.isError).toBe(true);
    expect(tried.content[0]!.text).toContain("nesting is deeper than 128 levels");
    const inspected = await call("stepgate_inspect_api", { document: `{"openapi":"3.1.0","paths":${'{"a":'.repeat(1_000)}1${"}".repeat(1_000)}}` });
    expect(inspected.isError).toBe(true);
    expect(inspected.content[0]!.text).toContain("nests deeper than 128 levels");
    // Still serving.
    expect((await call("stepgate_validate", { text: KEYLESS })).isError).toBeFalsy();
  });

  it("refuses a 20,000-item procedure in stepgate_outline with what to do instead, and goes on serving", async () => {
    const { call } = await start();
    const markdown = `# Huge\n\n${Array.from({ length: 20_000 }, (_, i) => `${i + 1}. Do thing ${i}. You MUST check item ${i}.`).join("\n")}\n`;
    const refused = await call("stepgate_outline", { markdown });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/^stepgate_outline refused: the markdown is \d+ bytes; stepgate_outline takes at most 262144: outline the procedure in parts/);
    const many = `# Many\n\n${Array.from({ length: 201 }, (_, i) => `${i + 1}. Do ${i}.`).join("\n")}\n`;
    expect((await call("stepgate_outline", { markdown: many })).content[0]!.text).toContain("the procedure has 201 steps; stepgate_outline makes at most 200");
    const outlined = await call("stepgate_outline", { markdown: "# Ship it\n\n1. Run the tests.\n2. Tag the release.\n" });
    expect(outlined.isError).toBeFalsy();
  });
});
