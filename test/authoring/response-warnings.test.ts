// Load warnings for paths read through `results` and `calls[].result`: a
// path the operation's response schemas rule out warns with its line:column
// and the nearest declared name; a path they leave open never does.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { loadStepfileText } from "../../src/loader/load.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

const INVOICE = "{ type: object, additionalProperties: false, properties: { id: { type: string }, status: { type: string }, lines: { type: array, items: { type: string } } } }";

/** A stepfile whose billing API declares `listInvoices` with the given responses, and one agent step with these gates. */
function stepfile(gates: string, responses = CLOSED, extraTools = ""): string {
  return `stepgate: "1"
id: reconcile
inputs: { type: object }
tools:
  billing:
    openapi:
      server: https://billing.example.com
      document:
        openapi: 3.1.0
        components: { schemas: { Invoice: ${INVOICE} } }
        paths:
          /invoices:
            get:
              operationId: listInvoices
              responses:
${responses}
    exposes: [listInvoices]
${extraTools}steps:
  - id: check
    instructions: Check the invoices.
    tools: [listInvoices]
    produces: { type: object }
    gates:
${gates}`;
}

const CLOSED = `                "200":
                  description: a page of invoices
                  content: { application/json: { schema: { type: object, additionalProperties: false, properties: { items: { type: array, items: { $ref: "#/components/schemas/Invoice" } }, next: { type: string } } } } }
                default:
                  description: an error
                  content: { application/json: { schema: { type: object, additionalProperties: false, properties: { code: { type: integer }, message: { type: string } } } } }`;

const gate = (predicate: string, id = "g") => `      - id: ${id}
        message: checked
        predicate: ${predicate}
        explain: "checked"
`;

function warnings(text: string): Array<{ path: string; message: string; line?: number; column?: number }> {
  return [...loadStepfileText(text, "draft").warnings];
}

describe("warnings for paths into response schemas", () => {
  it("warns for a results path the response rules out, with line:column and the nearest name", () => {
    const text = stepfile(gate('{ ">": [{ length: { results: [listInvoices, itemz] } }, 0] }'));
    const [w, ...rest] = warnings(text);
    expect(rest).toEqual([]);
    expect(w).toMatchObject({ path: 'steps[0].gates[0].predicate[">"][0].length.results[1]', line: 31 });
    expect(w!.message).toBe('"itemz": the response schema of listInvoices declares no property itemz there, so results would give nothing from it; did you mean items?');
    expect(text.split("\n")[w!.line! - 1]!.slice(w!.column! - 1)).toMatch(/^itemz\]/);
  });

  it("follows $ref into components, and the items results flattens", () => {
    expect(warnings(stepfile(gate("{ none: [{ results: [listInvoices, items] }, { \"==\": [{ var: statuz }, void] }] }")))).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^"statuz": the response schema of listInvoices declares no property statuz there, so it would be null at run time; did you mean status\?$/) }),
    ]);
    expect(warnings(stepfile(gate("{ none: [{ results: [listInvoices, items] }, { \"==\": [{ var: status }, void] }] }")))).toEqual([]);
    expect(warnings(stepfile(gate('{ in: [A-1, { results: [listInvoices, items.0.lines] }] }')))).toEqual([]);
  });

  it("says when a path runs into a list, and how to read each item", () => {
    expect(warnings(stepfile(gate('{ in: [A-1, { results: [listInvoices, items.id] }] }')))[0]!.message).toBe(
      '"items.id": items is a list in the response schema of listInvoices, and a path does not reach into each item, so results would give nothing from it; read the items with map: [{ results: [listInvoices, items] }, { var: id }]',
    );
  });

  it("trusts a name one allOf branch declares though another is closed", () => {
    const split = `                "200":
                  description: ok
                  content: { application/json: { schema: { allOf: [{ type: object, additionalProperties: false, properties: { a: { type: string } } }, { properties: { b: { type: string } } }] } } }`;
    expect(warnings(stepfile(gate('{ "!": [{ results: [listInvoices, b] }] }'), split))).toEqual([]);
    expect(warnings(stepfile(gate('{ "!": [{ results: [listInvoices, zzz] }] }'), split))).toHaveLength(1);
  });

  it("reads calls[].result as every declared response, errors included, unless a filter keeps successes", () => {
    // The default (error) response declares message, so any call may hold it.
    expect(warnings(stepfile(gate('{ all: [{ var: calls }, { "!": { var: result.message } }] }')))).toEqual([]);
    expect(warnings(stepfile(gate('{ "!": { var: calls.0.result.mesage } }')))).toEqual([
      expect.objectContaining({ path: 'steps[0].gates[0].predicate["!"].var', message: expect.stringContaining("did you mean calls.0.result.message?") }),
    ]);
    // Without a default, every call holds what a status the document lists says (issue 27: the statuses it lists are the whole story, as for results).
    const successOnly = CLOSED.slice(0, CLOSED.indexOf("                default:"));
    const anyCall = '{ all: [{ var: calls }, { "!": { var: result.message } }] }';
    expect(warnings(stepfile(gate(anyCall), successOnly))).toEqual([
      expect.objectContaining({ message: expect.stringContaining("each response (errors included, as is_error says) of listInvoices declares no property message") }),
    ]);
    const successes = '{ all: [{ filter: [{ var: calls }, { "!": { var: is_error } }] }, { "!": { var: result.message } }] }';
    expect(warnings(stepfile(gate(successes), successOnly))).toEqual([
      expect.objectContaining({ message: expect.stringContaining("each success response of listInvoices declares no property message") }),
    ]);
    // With a default, even a success may be a status only default describes.
    expect(warnings(stepfile(gate(successes)))).toEqual([]);
    const oneTool = '{ all: [{ filter: [{ var: calls }, { and: [{ "==": [{ var: tool }, listInvoices] }, { "==": [{ var: is_error }, false] }] }] }, { var: result.items }] }';
    expect(warnings(stepfile(gate(oneTool)))).toEqual([]);
    expect(warnings(stepfile(gate('{ "!": { var: calls.0.statuz } }')))[0]!.message).toContain("a calls entry declares no property statuz there");
  });

  it("never warns where the schemas leave the path open", () => {
    const open = (schema: string, error = "") => `                "200":
                  description: ok
                  content: { application/json: { schema: ${schema} } }
${error}`;
    const read = gate('{ "!": [{ results: [listInvoices, extra.deep] }] }', "a") + gate('{ "!": { var: calls.0.result.extra } }', "b");
    const cases = [
      open("{ type: object }"), // a map: no properties listed
      open("{ type: object, properties: { items: { type: array } }, additionalProperties: true }"), // other names said to exist
      open('{ $ref: "#/components/schemas/Missing" }'), // a $ref that leads nowhere
      open('{ $ref: "https://example.com/schemas/page.json" }'), // an external $ref
      open("{ anyOf: [{ type: object, additionalProperties: false }, { type: object }] }"), // a union with an open branch
      open("{ type: object, additionalProperties: false, allOf: [{ properties: { extra: { type: object } } }] }"), // closed beside a composition
      open("{ type: object, additionalProperties: { type: object } }"), // any name, declared
      open("{ type: object, patternProperties: { '^x': {} }, additionalProperties: false }"),
      `                "200": { description: no body declared }`,
      `                "200": { description: text, content: { text/plain: { schema: { type: string } } } }`,
    ];
    for (const responses of cases) expect(warnings(stepfile(read, responses)), responses).toEqual([]);
    // An error status the document lists with no JSON body may hold text: calls[].result is not judged then.
    const textError = open("{ type: object, additionalProperties: false, properties: { items: { type: array } } }", `                "404": { description: not found }`);
    expect(warnings(stepfile(gate('{ "!": { var: calls.0.result.extra } }'), textError))).toEqual([]);
    // An array's length and a string's characters exist.
    expect(warnings(stepfile(gate('{ "!": [{ results: [listInvoices, items.length] }, { results: [listInvoices, next.0] }] }')))).toEqual([]);
  });

  it("warns for a name an open object does not list, saying the object is open", () => {
    const open = `                "200":
                  description: ok
                  content: { application/json: { schema: { type: object, properties: { items: { type: array, items: { type: object, properties: { id: { type: string } } } }, next: { type: string } } } } }`;
    const [w, ...rest] = warnings(stepfile(gate('{ "!": [{ results: [listInvoices, itemz] }] }'), open));
    expect(rest).toEqual([]);
    expect(w!.message).toBe(
      '"itemz": the response schema of listInvoices declares no property itemz there (the object is open, so an answer may hold more than it documents, but nothing says it holds this), so results would give nothing from it; did you mean items?',
    );
    // Inside the items, through map, and through calls[].result.
    expect(warnings(stepfile(gate('{ none: [{ results: [listInvoices, items] }, { "==": [{ var: idd }, x] }] }'), open))[0]!.message).toContain("did you mean id?");
    const successes = '{ all: [{ filter: [{ var: calls }, { "!": { var: is_error } }] }, { "!": { var: result.nxt } }] }';
    expect(warnings(stepfile(gate(successes), open))[0]!.message).toContain("did you mean result.next?");
    expect(warnings(stepfile(gate('{ "!": [{ results: [listInvoices, next] }, { results: [listInvoices, items.0.id] }] }'), open))).toEqual([]);
    // An allOf of open objects documents the names of all its branches; one it cannot read may hold any.
    const composed = (second: string) => `                "200":
                  description: ok
                  content: { application/json: { schema: { type: object, allOf: [{ type: object, properties: { a: { type: string } } }, ${second}] } } }`;
    expect(warnings(stepfile(gate('{ "!": [{ results: [listInvoices, b] }] }'), composed("{ properties: { b: { type: string } } }")))).toEqual([]);
    expect(warnings(stepfile(gate('{ "!": [{ results: [listInvoices, c] }] }'), composed("{ properties: { b: { type: string } } }")))).toHaveLength(1);
    expect(warnings(stepfile(gate('{ "!": [{ results: [listInvoices, c] }] }'), composed('{ $ref: "#/components/schemas/Missing" }')))).toEqual([]);
    expect(warnings(stepfile(gate('{ "!": [{ results: [listInvoices, c] }] }'), composed("{ type: object }")))).toEqual([]);
  });

  it("rules a path out only when every possible response does", () => {
    const union = `                "200":
                  description: ok
                  content: { application/json: { schema: { oneOf: [{ type: object, additionalProperties: false, properties: { a: { type: string } } }, { type: object, additionalProperties: false, properties: { b: { type: string } } }] } } }
                "204": { description: nothing, content: { application/json: { schema: { type: "null" } } } }`;
    expect(warnings(stepfile(gate('{ "!": [{ results: [listInvoices, b] }] }'), union))).toEqual([]);
    expect(warnings(stepfile(gate('{ "!": [{ results: [listInvoices, zzz] }] }'), union))[0]!.message).toContain("declares no property zzz there, so results would give nothing from it (it declares a, b)");
  });

  it("does not judge tools whose responses are not in the file (a document by url, a remote MCP server)", () => {
    const tools = `  docs:
    mcp: { url: https://mcp.example.com/mcp }
    exposes: [search]
`;
    const text = stepfile(gate('{ "!": [{ results: [search, anything.at.all] }] }'), CLOSED, tools).replace("tools: [listInvoices]", "tools: [listInvoices, search]");
    expect(warnings(text)).toEqual([]);
    // calls may be to either tool, and search's responses are unknown.
    expect(warnings(text.replace("results: [search, anything.at.all]", "var: calls.0.result.anything"))).toEqual([]);
  });
});

describe("responses.<id> in a mechanical step's templates", () => {
  const NOT_FOUND = `                "404":
                  description: no such page
                  content: { application/json: { schema: { type: object, additionalProperties: false, properties: { code: { type: integer } } } } }`;
  const responses = CLOSED.slice(0, CLOSED.indexOf("                default:")) + NOT_FOUND;
  const mechanical = (call: string, output: string) =>
    stepfile(gate("true"), responses).replace(
      "steps:\n",
      `steps:\n  - id: fetch\n    do:\n      calls: [${call}]\n      output: ${output}\n    produces: { type: object }\n`,
    );

  it("warns for a path the call's response rules out, in output and inside map", () => {
    const found = warnings(mechanical("{ id: page, operation: listInvoices }", "{ next: { var: responses.page.nxt }, ids: { map: [{ var: responses.page.items }, { var: idd }] } }"));
    expect(found.map((w) => [w.path, w.message])).toEqual([
      ["steps[0].do.output.next.var", '"responses.page.nxt": the response schema of listInvoices declares no property nxt there, so it would be null at run time; did you mean responses.page.next?'],
      ["steps[0].do.output.ids.map[1].var", '"idd": the response schema of listInvoices declares no property idd there, so it would be null at run time; did you mean id?'],
    ]);
    expect(found.every((w) => w.line !== undefined && w.column !== undefined)).toBe(true);
  });

  it("adds the statuses a call accepts, and reads each's results as a list", () => {
    expect(warnings(mechanical("{ id: page, operation: listInvoices }", "{ code: { var: responses.page.code } }"))).toHaveLength(1);
    expect(warnings(mechanical("{ id: page, operation: listInvoices, accept: [404] }", "{ code: { var: responses.page.code } }"))).toEqual([]);
    // 410 is not declared (no default): its body may be anything.
    expect(warnings(mechanical("{ id: page, operation: listInvoices, accept: [410] }", "{ code: { var: responses.page.anything } }"))).toEqual([]);
    expect(warnings(mechanical("{ id: page, operation: listInvoices, each: [1, 2] }", "{ first: { var: responses.page.0.nxt }, n: { length: { var: responses.page } } }"))).toEqual([
      expect.objectContaining({ message: expect.stringContaining("did you mean responses.page.0.next?") }),
    ]);
  });
});

describe("the catalog and the compat corpus", () => {
  // Every file there is correct and runs, so any path warning would be a false one.
  const files = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => /\.stepfile\.(ya?ml|json)$/.test(f))
      .map((f) => join(dir, f));
  const catalog = files(fileURLToPath(new URL("../../awesome-stepfiles", import.meta.url)));
  const corpus = files(fileURLToPath(new URL("../compat/corpus", import.meta.url)));

  it("loads every catalog entry with no warning at all", () => {
    expect(catalog.length).toBeGreaterThan(20);
    const found = catalog.flatMap((f) => warnings(readFileSync(f, "utf8")).map((w) => `${f} ${w.path}: ${w.message}`));
    expect(found).toEqual([]);
  });

  it("loads every compat corpus stepfile with no warning about a path (its gates without explain, which the format allows, still warn as before)", () => {
    expect(corpus.length).toBeGreaterThan(15);
    const found = corpus.flatMap((f) => warnings(readFileSync(f, "utf8")).map((w) => `${f} ${w.path}: ${w.message}`));
    // The one write an agent step makes: post-bodies has the agent add a comment itself, which agent-write rightly flags.
    const writes = found.filter((w) => / changes something, and step \S+'s agent may call it/.test(w));
    expect(writes.map((w) => w.slice(w.indexOf("corpus/")).split(":")[0])).toEqual(["corpus/post-bodies/search-and-note.stepfile.yaml steps[1].tools[0]"]);
    expect(found.filter((w) => !/ has no explain and its predicate's shape explains nothing/.test(w) && !writes.includes(w))).toEqual([]);
  });
});

describe("through the built CLI", () => {
  let server: SpawnedStepgate | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const misspelled = stepfile(gate('{ ">": [{ length: { results: [listInvoices, itemz] } }, 0] }'));

  it("prints the warning once when serving, with file:line:column", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stepgate-response-warning-"));
    const file = join(dir, "reconcile.stepfile.yaml");
    writeFileSync(file, misspelled);
    server = await spawnStepgate(["--ledger-dir", join(dir, "ledger"), file]);
    expect((await server.client.listTools()).tools.map((t) => t.name)).toContain("reconcile");
    // Warnings are found once the tools/list answer is written (issue 27: they need not hold up the first answer).
    const s = server;
    for (let waited = 0; !s.stderr().includes("stepgate: warning: ") && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const printed = server.stderr().match(/stepgate: warning: \S*reconcile\.stepfile\.yaml:31:\d+ \S+: "itemz": the response schema of listInvoices declares no property itemz there, so results would give nothing from it; did you mean items\?/g);
    expect(printed).toHaveLength(1);
  }, 120_000);

  it("lists it in stepgate_validate's answer, as text and data", async () => {
    server = await spawnStepgate([]);
    const answer = (await server.client.callTool({ name: "stepgate_validate", arguments: { text: misspelled } })) as { content: Array<{ text: string }>; structuredContent: Record<string, unknown> };
    expect(answer.structuredContent).toMatchObject({ valid: true, warnings: [{ line: 31, message: expect.stringContaining("did you mean items?") }] });
    expect(answer.content[0]!.text).toMatch(/Warnings \(1;[\s\S]*- line 31:\d+ steps\[0\]\.gates\[0\]\.predicate\S*: "itemz"/);
  }, 120_000);
});
