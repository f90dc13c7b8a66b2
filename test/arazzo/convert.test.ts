// The mapping itself, in process (docs/arazzo.md's table): what each Arazzo
// construct becomes, and each refusal naming its workflow, step and
// construct while the rest of the document converts.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { convertDocument, type Conversion } from "../../src/arazzo/convert.js";
import { readArazzo } from "../../src/arazzo/document.js";
import { remoteSourceFetcher } from "../../src/arazzo/fetch-source.js";
import { sha256 } from "../../src/format/identity.js";
import { refusalLine } from "../../src/arazzo/refusals.js";
import { stepfileText } from "../../src/arazzo/write.js";
import { loadStepfileText } from "../../src/loader/load.js";
import { REPO_ROOT } from "../support/paths.js";
import { libraryDocument } from "./support/library.js";

const FIXTURES = resolve(REPO_ROOT, "test", "arazzo", "fixtures");

async function convert(file: string, text = readFileSync(join(FIXTURES, file), "utf8")): Promise<Conversion> {
  return convertDocument(readArazzo(text, file), { documentPath: join(FIXTURES, file) });
}

type Step = { id: string; when?: unknown; do?: { calls?: { arguments: unknown }[]; output: unknown }; gates?: { id: string; predicate?: unknown }[] };
const steps = (c: Conversion, i = 0) => c.converted[i]!.stepfile.steps as Step[];

describe("buy-pet.arazzo.yaml", () => {
  it("converts to a stepfile that loads, one mechanical step per operation step plus the workflow's outputs", async () => {
    const c = await convert("buy-pet.arazzo.yaml");
    expect(c.refused).toEqual([]);
    const doc = c.converted[0]!.stepfile;
    expect(doc.id).toBe("buy-pet");
    expect(steps(c).map((s) => s.id)).toEqual(["find-pets", "get-pet", "hold-pet", "place-order", "read-order", "send-receipt", "outputs"]);
    expect(loadStepfileText(stepfileText(doc), "buy-pet").warnings).toEqual([]);
  });

  it("makes the security scheme a credential for the server's host, and drops the input only x-security read", async () => {
    const doc = (await convert("buy-pet.arazzo.yaml")).converted[0]!.stepfile as { inputs: { properties: object }; credentials: object; tools: Record<string, { credential: string; exposes: string[] }> };
    expect(doc.credentials).toEqual({ "store-key": { kind: "api_key", hosts: ["store.example.com"], description: "The pet store's API key" } });
    expect(doc.tools.store!.credential).toBe("store-key");
    expect(doc.tools.store!.exposes).toEqual(["findPets", "getPet", "holdPet", "placeOrder", "getOrder", "sendReceipt"]);
    expect(Object.keys(doc.inputs.properties)).toEqual(["status", "quantity"]);
  });

  it("turns a forward goto into `when` on the steps it passes over, and end into `when` on every later step", async () => {
    const s = steps(await convert("buy-pet.arazzo.yaml"));
    const byId = Object.fromEntries(s.map((x) => [x.id, x]));
    expect(byId["get-pet"]!.when).toEqual({ "!": [{ in: [{ var: "steps.find-pets.next" }, ["end"]] }] });
    expect(byId["hold-pet"]!.when).toEqual({ "!": [{ or: [{ in: [{ var: "steps.find-pets.next" }, ["end"]] }, { in: [{ var: "steps.get-pet.next" }, ["goto:placeOrder"]] }] }] });
    // get-pet's goto lands on place-order, so it skips nothing from there on.
    expect(byId["place-order"]!.when).toEqual({ "!": [{ in: [{ var: "steps.find-pets.next" }, ["end"]] }] });
    expect(byId["get-pet"]!.do!.output).toMatchObject({ next: { if: [{ "==": [{ lower: { var: "responses.call.status" } }, "available"] }, "goto:placeOrder", "next"] } });
  });

  it("turns criteria into gates: status checks the call's success already makes have none; regex and jsonpath become expressions", async () => {
    const s = steps(await convert("buy-pet.arazzo.yaml"));
    const gates = Object.fromEntries(s.map((x) => [x.id, x.gates ?? []]));
    expect(gates["find-pets"]!.map((g) => g.id)).toEqual(["success-2"]);
    expect(gates["find-pets"]![0]!.predicate).toEqual({ "==": [{ lower: { var: "calls.0.result.0.status" } }, "available"] });
    expect(gates["get-pet"]!.map((g) => g.predicate)).toEqual([
      { "!=": [{ var: "calls.0.result.name" }, null] },
      { "!!": [{ length: { match_all: [{ cat: [{ var: "calls.0.result.name" }] }, "^[A-Z][a-z]+$"] } }] },
    ]);
    expect(gates["hold-pet"]).toEqual([]);
  });

  it("fills arguments from parameters and the payload, embedded expressions by cat", async () => {
    const s = steps(await convert("buy-pet.arazzo.yaml"));
    const byId = Object.fromEntries(s.map((x) => [x.id, x]));
    expect(byId["place-order"]!.do!.calls![0]!.arguments).toEqual({ object: [["body", { object: [["petId", { var: "steps.find-pets.outputs.petId" }], ["quantity", { var: "inputs.quantity" }]] }]] });
    expect(JSON.stringify(byId["read-order"]!.do!.output)).toContain('{"cat":["Order ",{"var":"steps.place-order.outputs.orderId"}," for ",{"var":"steps.get-pet.outputs.name"}]}');
  });
});

describe("refusals.arazzo.yaml", () => {
  it("refuses each construct a linear stepfile cannot mean, naming workflow, step and construct, and converts the rest", async () => {
    const c = await convert("refusals.arazzo.yaml");
    expect(c.converted.map((w) => w.workflowId)).toEqual(["readOne"]);
    const lines = c.refused.map(refusalLine);
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^workflow pollUntilPlaced, step check: onSuccess\[0\] \(goto again\): it goes back to step place, a loop/);
    expect(lines[1]).toMatch(/^workflow escalate, step read: onTimeout: /);
    expect(lines[2]).toMatch(/^workflow retryOnNotFound, step read: onFailure\[0\] \(retry waitForIt\): .*this retry is for 404 on GET/);
    expect(lines[3]).toMatch(/^workflow listen, step wait: operationId \$sourceDescriptions\.events\.orderPlaced: source events is of type asyncapi/);
    expect(lines[4]).toMatch(/^workflow readHeader, step read: the runtime expression \$response\.header\.ETag: /);
    for (const line of lines) expect(line).toContain("; to convert it, ");
  });
});

describe("status codes", () => {
  const doc = (condition: string, responses: string) => `arazzo: 1.0.1
info: { title: t, version: "1" }
sourceDescriptions: [{ name: store, url: ./status.openapi.json, type: openapi }]
workflows:
  - workflowId: w
    steps:
      - stepId: s
        operationPath: '{$sourceDescriptions.store.url}#/paths/~1things/post'
        successCriteria: [{ condition: "${condition}" }]
`.replace("./status.openapi.json", `data:${responses}`);

  it("refuses a condition that tells two documented success statuses apart, and converts one that does not", async () => {
    const api = { openapi: "3.1.0", info: { title: "a", version: "1" }, servers: [{ url: "https://api.example.com" }], paths: { "/things": { post: { responses: { "200": { description: "ok" }, "201": { description: "made" } } } } } };
    const { writeFileSync, mkdtempSync } = await import("node:fs");
    const dir = mkdtempSync(join((await import("node:os")).tmpdir(), "stepgate-status-"));
    writeFileSync(join(dir, "status.openapi.json"), JSON.stringify(api));
    const run = (condition: string) => convertDocument(readArazzo(doc(condition, "").replace("data:", "./status.openapi.json"), "d"), { documentPath: join(dir, "d.arazzo.yaml") });
    const apart = await run("$statusCode == 201");
    expect(refusalLine(apart.refused[0]!)).toMatch(/step s: successCriteria\[0\] \(simple "\$statusCode == 201"\): it tells the operation's success statuses \(200, 201\) apart/);
    const both = await run("$statusCode == 200 || $statusCode == 201");
    expect(both.refused).toEqual([]);
    // The operation had no operationId: the inlined copy of the document is given one.
    expect((both.converted[0]!.stepfile.tools as Record<string, { exposes: string[] }>).store!.exposes).toEqual(["post-things"]);
  });
});

describe("remote sources", () => {
  const remote = (url: string) =>
    readFileSync(join(FIXTURES, "refusals.arazzo.yaml"), "utf8").replace("url: ./store.openapi.json", `url: ${url}`);

  it("pins a fetched document by url and the sha256 of the bytes fetched", async () => {
    const bytes = readFileSync(join(FIXTURES, "store.openapi.json"));
    const fetched: string[] = [];
    const c = await convertDocument(readArazzo(remote("https://store.example.com/openapi.json"), "r"), {
      documentPath: join(FIXTURES, "r.arazzo.yaml"),
      fetchRemote: async (url) => (fetched.push(url), new Uint8Array(bytes)),
    });
    expect(fetched).toEqual(["https://store.example.com/openapi.json"]);
    const tool = (c.converted.find((w) => w.workflowId === "readOne")!.stepfile.tools as Record<string, { openapi: unknown }>).store!;
    expect(tool.openapi).toEqual({ server: "https://store.example.com", url: "https://store.example.com/openapi.json", sha256: sha256(bytes) });
    expect(loadStepfileText(stepfileText(c.converted[0]!.stepfile), "pinned").doc.id).toBe("read-one");
  });

  it("refuses a remote source that is not public https, fetching nothing, and names --source", async () => {
    const c = await convertDocument(readArazzo(remote("http://127.0.0.1:9/openapi.json"), "r"), {
      documentPath: join(FIXTURES, "r.arazzo.yaml"),
      fetchRemote: remoteSourceFetcher({ userAgent: "stepgate/test", timeoutMs: 1000, maxBytes: 1_000_000 }),
    });
    const line = refusalLine(c.refused.find((r) => r.workflow === "readOne")!);
    expect(line).toContain("source store could not be fetched from http://127.0.0.1:9/openapi.json: http://127.0.0.1:9/openapi.json is not a public https URL");
    expect(line).toContain("name a local copy with --source store=<file>");
  });
});

describe("edges.arazzo.yaml", () => {
  it("refuses each mistake in its own words, naming workflow and step", async () => {
    const lines = (await convert("edges.arazzo.yaml")).refused.map(refusalLine);
    expect(lines.map((l) => l.split(":")[0])).toEqual(["workflow a, step s1", "workflow b, step s1", "workflow c, step s1", "workflow d, step s1", "workflow e, step s1", "workflow f, step s1", "workflow g, step s1", "workflow h, step s1", "workflow i"]);
    expect(lines[0]).toContain("workflow a would run itself (a -> b -> a), a loop");
    expect(lines[2]).toContain("add the method, as {$sourceDescriptions.store.url}#/paths/~1pets/get");
    expect(lines[3]).toContain("a string that is not JSON text");
    expect(lines[4]).toContain("requestBody.replacements[1] (target /nope)");
    expect(lines[5]).toContain("no step of this workflow has stepId nowhere");
    expect(lines[6]).toContain("the condition does not parse");
    expect(lines[7]).toContain("does not compile under RE2");
    expect(lines[8]).toContain('it is of type "array"');
  });
});

describe("Redocly Respect's spellings, and workflows of another Arazzo document", () => {
  const api = libraryDocument("https://library.example.com");
  const head = (sources: string) => `arazzo: 1.0.1
info: { title: t, version: "1" }
sourceDescriptions:
${sources}
workflows:
`;
  const library = "  - { name: library, url: ./library.openapi.json, type: openapi }";
  async function convertIn(files: Record<string, string>, main = "main.arazzo.yaml"): Promise<Conversion> {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const dir = mkdtempSync(join((await import("node:os")).tmpdir(), "stepgate-respect-"));
    writeFileSync(join(dir, "library.openapi.json"), JSON.stringify(api));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return convertDocument(readArazzo(files[main]!, main), { documentPath: join(dir, main) });
  }
  const oneStep = (step: string) => `  - workflowId: w
    steps:
      - stepId: s
${step}
`;

  it("reads <source>.<operationId>, an operationPath naming its source as $sourceDescriptions.<name> or by its url, and prefers an operationId that has the dot itself", async () => {
    const c = await convertIn({
      "main.arazzo.yaml": head(library) + oneStep("        operationId: library.getHours") + oneStep("        operationPath: $sourceDescriptions.library#/paths/~1hours/get").replace("w\n", "w2\n") + oneStep("        operationPath: ./library.openapi.json#/paths/~1hours/get").replace("w\n", "w3\n"),
    });
    expect(c.refused).toEqual([]);
    for (const w of c.converted) expect((w.stepfile.tools as Record<string, { exposes: string[] }>).library!.exposes).toEqual(["getHours"]);
    const dotted = structuredClone(api) as { paths: Record<string, { get: { operationId: string } }> };
    dotted.paths["/books/{isbn}"]!.get.operationId = "library.getHours";
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const dir = mkdtempSync(join((await import("node:os")).tmpdir(), "stepgate-respect-"));
    writeFileSync(join(dir, "library.openapi.json"), JSON.stringify(dotted));
    const text = head(library) + oneStep("        operationId: library.getHours");
    const literal = await convertDocument(readArazzo(text, "m"), { documentPath: join(dir, "m.arazzo.yaml") });
    // The whole text is an operationId of the document, so it is that operation, not getHours.
    expect(literal.refused.map(refusalLine)).toEqual([expect.stringContaining("a stepfile exposes operations by names of letters, digits, _ and -")]);
  });

  it("drops an input read only by the Authorization parameter, and says the credential is sent instead", async () => {
    const c = await convertIn({
      "main.arazzo.yaml":
        head(library) +
        `  - workflowId: w
    inputs: { type: object, properties: { token: { type: string }, isbn: { type: string } } }
    steps:
      - stepId: s
        operationId: getBook
        parameters:
          - { name: Authorization, in: header, value: $inputs.token }
          - { name: isbn, in: path, value: $inputs.isbn }
`,
    });
    expect(c.refused).toEqual([]);
    expect(Object.keys((c.converted[0]!.stepfile.inputs as { properties: object }).properties)).toEqual(["isbn"]);
    expect(c.notes.map((n) => [n.rule, n.path])).toEqual([["arazzo-credential-parameter", "workflows[0]"]]);
    expect(c.notes[0]!.message).toContain("workflow w, step s: parameter Authorization (in header) is not sent as written: the security scheme of operation getBook puts its credential in that header, so Stepgate sends the credential library-auth there, read from LIBRARY_AUTH_API_KEY");
  });

  it("refuses an operationId in an Arazzo source, a workflow it does not have, and documents that name each other, without waiting on itself", async () => {
    const loans = head(`${library}\n  - { name: main, url: ./main.arazzo.yaml, type: arazzo }`) + oneStep("        workflowId: $sourceDescriptions.main.w").replace("w\n", "lend\n");
    const main =
      head(`${library}\n  - { name: loans, url: ./loans.arazzo.yaml, type: arazzo }\n  - { name: self, url: ./main.arazzo.yaml, type: arazzo }`) +
      oneStep("        operationId: loans.createLoan") +
      oneStep("        workflowId: $sourceDescriptions.loans.nothing").replace("w\n", "w2\n") +
      oneStep("        workflowId: $sourceDescriptions.loans.lend").replace("w\n", "w3\n") +
      oneStep("        workflowId: $sourceDescriptions.self.w").replace("w\n", "w4\n");
    const lines = (await convertIn({ "main.arazzo.yaml": main, "loans.arazzo.yaml": loans })).refused.map(refusalLine);
    expect(lines[0]).toContain("operationId loans.createLoan: source loans is an Arazzo document, which holds workflows, not operations");
    expect(lines[1]).toMatch(/workflowId \$sourceDescriptions\.loans\.nothing: source loans \(.*loans\.arazzo\.yaml\) has no workflow nothing; to convert it, name one of its workflows \(lend\)/);
    expect(lines[2]).toMatch(/source main is a document already being read \(.*main\.arazzo\.yaml -> .*loans\.arazzo\.yaml -> .*main\.arazzo\.yaml\)/);
    expect(lines[3]).toMatch(/source self is a document already being read .*; to convert it, run this document's own workflows by their plain workflowId/);
  });

  it("names the filter a `$.field == value` jsonpath condition means", async () => {
    const c = await convertIn({
      "main.arazzo.yaml": head(library) + oneStep("        operationId: getHours\n        successCriteria:\n          - { context: $response.body, type: jsonpath, condition: \"$.closes == '18:00'\" }"),
    });
    expect(refusalLine(c.refused[0]!)).toContain("to convert it, write it as the filter $[?@.closes == '18:00']");
  });
});

describe("Jentic's generated workflows (jentic/jentic-public-apis, workflows/*/workflows.arazzo.json)", () => {
  const api = (method: "get" | "post") => ({
    openapi: "3.0.2",
    info: { title: "weather", version: "1" },
    servers: [{ url: "https://weather.example.com/api" }],
    components: { securitySchemes: { APIKeyQuery: { type: "apiKey", in: "query", name: "key" } } },
    security: [{ APIKeyQuery: [] }],
    paths: { "/point": { [method]: { operationId: "point", parameters: [{ name: "place", in: "query", schema: { type: "string" } }, { name: "key", in: "query", schema: { type: "string" } }], responses: { "200": { description: "ok" } } } } },
  });
  const doc = (retryWhen: string) =>
    JSON.stringify({
      arazzo: "1.0.1",
      info: { title: "Jentic Generated Arazzo Specification", version: "1.0.0" },
      sourceDescriptions: [{ name: "openapi_source", url: "./weather.json", type: "openapi" }],
      workflows: [
        {
          workflowId: "forecast",
          inputs: { type: "object", properties: { place: { type: "string" }, key: { type: "string" } } },
          steps: [{ stepId: "point", operationId: "point", parameters: [{ name: "place", in: "query", value: "$inputs.place" }, { name: "key", in: "query", value: "$inputs.key" }], successCriteria: [{ condition: "$statusCode == 200" }] }],
          failureActions: [{ reference: "$components.failureActions.auth_failure" }, { reference: "$components.failureActions.server_error" }],
        },
      ],
      components: {
        failureActions: {
          auth_failure: { name: "auth_failure", type: "end", criteria: [{ condition: "$statusCode == 401" }] },
          server_error: { name: "server_error", type: "retry", retryAfter: 2, retryLimit: 3, criteria: [{ condition: retryWhen }] },
        },
      },
    });
  async function convertWith(method: "get" | "post", retryWhen: string): Promise<Conversion> {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const dir = mkdtempSync(join((await import("node:os")).tmpdir(), "stepgate-jentic-"));
    writeFileSync(join(dir, "weather.json"), JSON.stringify(api(method)));
    return convertDocument(readArazzo(doc(retryWhen), "w.arazzo.json"), { documentPath: join(dir, "w.arazzo.json") });
  }

  it("sends the held API key where the scheme puts it, never the input, and drops the input", async () => {
    const c = await convertWith("get", "$statusCode >= 500");
    expect(c.refused).toEqual([]);
    const stepfile = c.converted[0]!.stepfile as { inputs: { properties: object }; steps: Step[] };
    expect(Object.keys(stepfile.inputs.properties)).toEqual(["place"]);
    expect(JSON.stringify(stepfile.steps)).not.toContain("inputs.key");
    expect(c.notes[0]!.message).toContain("parameter key (in query) is not sent as written: the security scheme of operation point puts its credential in that query parameter, so Stepgate sends the credential api-key-query there, read from API_KEY_QUERY_API_KEY");
  });

  it("reads a retry's criteria as the statuses they select: >= 500 on a GET is what the runtime retries", async () => {
    for (const when of ["$statusCode >= 500", "$statusCode > 499 && $statusCode < 600", "$statusCode == 429 || $statusCode >= 500"]) expect((await convertWith("get", when)).refused, when).toEqual([]);
    const lines = async (method: "get" | "post", when: string) => (await convertWith(method, when)).refused.map(refusalLine);
    expect(await lines("get", "$statusCode >= 400")).toEqual([expect.stringContaining("this retry is for 400-599 on GET")]);
    expect(await lines("post", "$statusCode >= 500")).toEqual([expect.stringContaining("this retry is for 500-599 on POST")]);
    expect(await lines("get", "$response.body#/retry == true")).toEqual([expect.stringContaining("this retry has criteria other than those statuses, or none")]);
  });
});

describe("Jentic's cookbook spellings (jentic-community/arazzo-engine-cookbook at 47afafb)", () => {
  const doc = (step: string, outputs = "") => `arazzo: 1.0.1
info: { title: t, version: "1" }
sourceDescriptions: [{ name: store, url: ./store.openapi.json, type: openapi }]
workflows:
  - workflowId: w
    inputs: { type: object, properties: { petId: { type: integer } } }
    steps:
${step}
${outputs}`;
  const read = `      - stepId: read
        operationId: getPet
        parameters: [{ name: petId, in: path, value: $inputs.petId }]
        outputs:
          name: $response.body.name
          firstTag: $response.body.tags[0]
`;

  it("reads $response.body.<name>, an index in brackets, and $steps.<id>.outputs whole, as the names they spell", async () => {
    const c = await convert("jentic.arazzo.yaml", doc(read, "    outputs:\n      pet: $steps.read.outputs\n      tag: $steps.read.outputs.firstTag"));
    expect(c.refused).toEqual([]);
    const out = steps(c);
    expect(out[0]!.do!.output).toEqual({ object: [["outputs", { object: [["name", { var: "responses.call.name" }], ["firstTag", { var: "responses.call.tags.0" }]] }]] });
    expect(out[1]!.do!.output).toEqual({ object: [["pet", { var: "steps.read.outputs" }], ["tag", { var: "steps.read.outputs.firstTag" }]] });
    expect(loadStepfileText(stepfileText(c.converted[0]!.stepfile), "jentic").warnings).toEqual([]);
  });

  it("names the file a relative url finds from the current folder, where the document's folder has none", async () => {
    const { mkdtempSync } = await import("node:fs");
    const dir = mkdtempSync(join((await import("node:os")).tmpdir(), "stepgate-cwd-"));
    const text = doc(read).replace("url: ./store.openapi.json", "url: test/arazzo/fixtures/store.openapi.json");
    const c = await convertDocument(readArazzo(text, "j"), { documentPath: join(dir, "j.arazzo.yaml") });
    const line = refusalLine(c.refused[0]!);
    expect(line).toContain("a relative url is resolved from the Arazzo document's folder");
    expect(line).toContain("name the file found from the current folder with --source store=test/arazzo/fixtures/store.openapi.json");
  });

  it("says why type: simple with no context is refused by the Arazzo schema, and what to write", () => {
    const text = doc(`      - stepId: read
        operationId: getPet
        successCriteria:
          - condition: $statusCode == 200
            type: simple
`);
    expect(() => readArazzo(text, "j")).toThrow(/must have property context when property type is present; simple is the default type, so drop type: simple, or give the context it applies to/);
  });
});

describe("Arazzo sources that name each other while loading side by side", () => {
  it("ends: two documents loaded at once, each naming the other, refuse the loop instead of waiting on each other", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const dir = mkdtempSync(join((await import("node:os")).tmpdir(), "stepgate-arazzo-siblings-"));
    const doc = (sources: string, target: string) => `arazzo: 1.0.1
info: { title: t, version: "1" }
sourceDescriptions:
${sources}
workflows:
  - workflowId: w
    steps:
      - { stepId: s, workflowId: ${target} }
`;
    writeFileSync(join(dir, "b.arazzo.yaml"), doc("  - { name: c, url: ./c.arazzo.yaml, type: arazzo }", "$sourceDescriptions.c.w"));
    writeFileSync(join(dir, "c.arazzo.yaml"), doc("  - { name: b, url: ./b.arazzo.yaml, type: arazzo }", "$sourceDescriptions.b.w"));
    const main = doc("  - { name: b, url: ./b.arazzo.yaml, type: arazzo }\n  - { name: c, url: ./c.arazzo.yaml, type: arazzo }", "$sourceDescriptions.b.w");
    const c = await convertDocument(readArazzo(main, "a"), { documentPath: join(dir, "a.arazzo.yaml") });
    expect(refusalLine(c.refused[0]!)).toMatch(/source b is a document already being read \(.*b\.arazzo\.yaml -> .*c\.arazzo\.yaml -> .*b\.arazzo\.yaml\)/);
  }, 10_000);
});
