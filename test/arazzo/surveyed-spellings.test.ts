// Spellings found in Arazzo documents and runners in use, read as their
// authors mean them (docs/arazzo.md, the mapping), or refused naming the
// spelling that converts: a Content-Type parameter restating the body's
// media type, an operationPath naming its source bare (jentic/arazzo-engine),
// the JSONPath filter a `$.x.length == n` comparison means (and the one a
// filter reading `@.x.length` means), and a regex
// criterion written as a JavaScript literal with flags. In process, and
// then one document with all of them checked and run by the built CLI over
// stdio against the loopback pet store (test/arazzo/support/pet-store.ts).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertDocument, type Conversion } from "../../src/arazzo/convert.js";
import { readArazzo } from "../../src/arazzo/document.js";
import { refusalLine } from "../../src/arazzo/refusals.js";
import { stepgate } from "../offline/cli.js";
import { budget } from "../support/budget.js";
import { REPO_ROOT } from "../support/paths.js";
import { spawnStepgate } from "../support/stepgate.js";
import { startPetStore, type PetStore } from "./support/pet-store.js";

const FIXTURES = resolve(REPO_ROOT, "test", "arazzo", "fixtures");

/** A document over the fixtures' store.openapi.json whose one workflow has these steps (YAML, indented under steps). */
function documentWith(steps: string): string {
  return `arazzo: 1.0.1
info: { title: Surveyed spellings, version: 1.0.0 }
sourceDescriptions:
  - { name: store, url: ./store.openapi.json, type: openapi }
workflows:
  - workflowId: spelled
    steps:
${steps}
`;
}

async function convert(steps: string): Promise<Conversion> {
  return convertDocument(readArazzo(documentWith(steps), "spelled.arazzo.yaml"), { documentPath: join(FIXTURES, "spelled.arazzo.yaml") });
}

type Step = { id: string; do?: { calls?: { operation: string; arguments: unknown }[] }; gates?: { predicate: unknown }[] };
const stepsOf = (c: Conversion) => c.converted[0]!.stepfile.steps as Step[];
const refusals = (c: Conversion) => c.refused.map(refusalLine);

const placeOrder = (contentType: string) => `      - stepId: place
        operationId: placeOrder
        parameters:
          - { name: Content-Type, in: header, value: ${contentType} }
        requestBody:
          contentType: application/json
          payload: { petId: 7, quantity: 1 }`;

describe("a Content-Type header parameter", () => {
  it("is left out when it says what is sent anyway: the body's media type, in any case, with charset=utf-8 or without", async () => {
    for (const value of ["application/json", "Application/JSON", "'application/json; charset=UTF-8'"]) {
      const c = await convert(placeOrder(value));
      expect(refusals(c), value).toEqual([]);
      expect(stepsOf(c)[0]!.do!.calls![0]!.arguments).toEqual({ object: [["body", { object: [["petId", 7], ["quantity", 1]] }]] });
    }
  });

  it("is refused when it contradicts the body, or is known only at run time, naming the type sent and the fix", async () => {
    expect(refusals(await convert(placeOrder("text/plain")))).toEqual([
      "workflow spelled, step place: parameter Content-Type (in header): Stepgate sends the body as application/json, the media type operation placeOrder declares, and this parameter says text/plain; to convert it, drop the parameter, or declare text/plain as the operation's request body content (only JSON and text bodies can be sent)",
    ]);
    expect(refusals(await convert(placeOrder("$inputs.type")))).toEqual([
      "workflow spelled, step place: parameter Content-Type (in header): Stepgate sets the Content-Type header itself, to application/json, and this value is known only at run time; to convert it, drop the parameter, or write application/json",
    ]);
  });

  it("is refused on an operation that takes no body", async () => {
    const c = await convert(`      - stepId: read
        operationId: getOrder
        parameters:
          - { name: orderId, in: path, value: ord-1 }
          - { name: content-type, in: header, value: application/json }`);
    expect(refusals(c)).toEqual([expect.stringContaining("parameter content-type (in header): Stepgate sets the content-type header itself, and operation getOrder takes no JSON or text body for it to describe; to convert it, drop the parameter")]);
  });
});

const readPetBy = (operationPath: string) => `      - stepId: read
        operationPath: ${operationPath}
        parameters:
          - { name: petId, in: path, value: 7 }`;

describe("an operationPath naming its source bare, as jentic/arazzo-engine reads it", () => {
  it("converts as $sourceDescriptions.<name> and the specification's {$sourceDescriptions.<name>.url} do", async () => {
    const bare = await convert(readPetBy("store#/paths/~1pets~1{petId}/get"));
    expect(refusals(bare)).toEqual([]);
    expect(stepsOf(bare)[0]!.do!.calls![0]!.operation).toBe("getPet");
    for (const spelled of ["$sourceDescriptions.store#/paths/~1pets~1{petId}/get", "'{$sourceDescriptions.store.url}#/paths/~1pets~1{petId}/get'"]) {
      expect((await convert(readPetBy(spelled))).converted[0]!.stepfile).toEqual(bare.converted[0]!.stepfile);
    }
  });

  it("is refused, naming the sources there are, when no source has that name or url", async () => {
    expect(refusals(await convert(readPetBy("shop#/paths/~1pets~1{petId}/get")))).toEqual([
      "workflow spelled, step read: operationPath shop#/paths/~1pets~1{petId}/get: no sourceDescription is named shop, nor has it as its url; to convert it, name one of the document's sourceDescriptions (store)",
    ]);
    expect(refusals(await convert(readPetBy("'shop:8080#/paths/~1pets~1{petId}/get'")))).toEqual([expect.stringContaining("it is not {$sourceDescriptions.<name>.url}#<JSON Pointer> (nor $sourceDescriptions.<name>, <name> or a source's url before the #)")]);
  });
});

const readPetWith = (condition: string) => `      - stepId: read
        operationId: getPet
        parameters:
          - { name: petId, in: path, value: 7 }
        successCriteria:
          - context: $response.body
            type: jsonpath
            condition: "${condition}"`;

describe("a JSONPath comparison of a length, $.x.length == n", () => {
  it("is refused naming the RFC 9535 filter it means, length(@.x), which then converts", async () => {
    const [line] = refusals(await convert(readPetWith("$.tags.length == 1")));
    expect(line).toMatch(/: only a filter over the context \(\$\[\?<filter>\]\) has a stepfile expression; to convert it, write it as the filter \$\[\?length\(@\.tags\) == 1\]$/);
    const suggested = /write it as the filter (.+)$/.exec(line!)![1]!;
    const c = await convert(readPetWith(suggested));
    expect(refusals(c)).toEqual([]);
    expect(stepsOf(c)[0]!.gates!.map((g) => g.predicate)).toEqual([{ "==": [{ length: { var: "calls.0.result.tags" } }, 1] }]);
  });

  it("keeps a path to an array's length whole, and names other comparisons' filter as before", async () => {
    expect(refusals(await convert(readPetWith("$.owner.pets.length > 0")))).toEqual([expect.stringMatching(/write it as the filter \$\[\?length\(@\.owner\.pets\) > 0\]$/)]);
    expect(refusals(await convert(readPetWith("$.name == 'Rex'")))).toEqual([expect.stringMatching(/write it as the filter \$\[\?@\.name == 'Rex'\]$/)]);
  });
});

describe("a JSONPath filter reading .length, $[?@.x.length > n]", () => {
  it("is refused naming the same filter with length(@.x), which then converts", async () => {
    const [line] = refusals(await convert(readPetWith("$[?@.tags.length > 0]")));
    expect(line).toBe(
      `workflow spelled, step read: successCriteria[0] (jsonpath "$[?@.tags.length > 0]"): @.tags.length reads a member named length, which an array does not have (RFC 9535 has no .length; an array's size is length(), section 2.4.4), so on an array the filter never holds; to convert it, write it as the filter $[?length(@.tags) > 0], or @.tags['length'] for a member named length`,
    );
    const suggested = /write it as the filter (.+), or /.exec(line!)![1]!;
    const c = await convert(readPetWith(suggested));
    expect(refusals(c)).toEqual([]);
    expect(stepsOf(c)[0]!.gates!.map((g) => g.predicate)).toEqual([{ ">": [{ length: { var: "calls.0.result.tags" } }, 0] }]);
  });

  it("spells the suggestion for the filter as written: parentheses, spacing, nested paths, every comparison", async () => {
    const suggestion = async (condition: string) => /write it as the filter (.+), or /.exec(refusals(await convert(readPetWith(condition)))[0] ?? "")?.[1];
    expect(await suggestion("$[?(@.tags.length>0)]")).toBe("$[?(length(@.tags)>0)]");
    expect(await suggestion("$[?@.owner['pets'][0].tags.length >= 2 && @.name == 'Rex']")).toBe("$[?length(@.owner['pets'][0].tags) >= 2 && @.name == 'Rex']");
    for (const op of ["==", "!=", "<", "<=", ">", ">="]) expect(await suggestion(`$[?@.a.b.length ${op} 1]`), op).toBe(`$[?length(@.a.b) ${op} 1]`);
    expect(await suggestion("$[?@.tags.length > 0 || @.photoUrls.length == 1]")).toBe("$[?length(@.tags) > 0 || length(@.photoUrls) == 1]");
  });

  it("leaves a member named length read with brackets, length() itself, and a string that says .length", async () => {
    for (const condition of ["$[?@.tags['length'] == 1]", "$[?length(@.tags) == 1]", "$[?@.name != '@.tags.length']", "$[?@.lengthy == 1]"]) {
      expect(refusals(await convert(readPetWith(condition))), condition).toEqual([]);
    }
  });
});

const readPetMatching = (context: string, condition: string) => `      - stepId: read
        operationId: getPet
        parameters:
          - { name: petId, in: path, value: 7 }
        successCriteria:
          - context: ${context}
            type: regex
            condition: '${condition}'`;

describe("a regex condition written as a JavaScript literal", () => {
  it("is read as its body with its flags, not as a pattern that needs the slashes", async () => {
    const named = await convert(readPetMatching("$response.body#/name", "/^rex$/i"));
    expect(refusals(named)).toEqual([]);
    expect(stepsOf(named)[0]!.gates!.map((g) => g.predicate)).toEqual([{ "!!": [{ length: { match_all: [{ cat: [{ var: "calls.0.result.name" }] }, "(?i)^rex$"] } }] }]);
    // getPet documents 200 as its one success, which /^2\d\d$/ matches: the call succeeding is the check.
    const status = await convert(readPetMatching("$statusCode", "/^2\\d\\d$/"));
    expect(refusals(status)).toEqual([]);
    expect(stepsOf(status)[0]!.gates).toBeUndefined();
  });

  it("keeps a condition a JavaScript parser would not take as a literal as the pattern it is", async () => {
    const c = await convert(readPetMatching("$response.body#/name", "/api/v1/"));
    expect(stepsOf(c)[0]!.gates!.map((g) => g.predicate)).toEqual([{ "!!": [{ length: { match_all: [{ cat: [{ var: "calls.0.result.name" }] }, "/api/v1/"] } }] }]);
  });

  it("is refused for a flag with no stepfile meaning, naming the flag and those there are", async () => {
    expect(refusals(await convert(readPetMatching("$response.body#/name", "/^rex$/y")))).toEqual([
      'workflow spelled, step read: successCriteria[0] (regex "/^rex$/y"): the condition is a JavaScript regex literal, and its flag y has no stepfile meaning (i, m, s, u, g do); to convert it, drop the flag, or write the check as a simple condition',
    ]);
  });
});

describe("the built CLI, given a document with each spelling that converts", () => {
  const KEY = "spelled-store-key";
  let store: PetStore;
  let dir: string;
  let document: string;
  beforeAll(async () => {
    store = await startPetStore(KEY);
    dir = mkdtempSync(join(tmpdir(), "stepgate-arazzo-spelled-"));
    writeFileSync(join(dir, "store.openapi.json"), JSON.stringify(store.document));
    document = join(dir, "spelled.arazzo.yaml");
    writeFileSync(
      document,
      documentWith(`      - stepId: read
        operationPath: store#/paths/~1pets~1{petId}/get
        parameters:
          - { name: petId, in: path, value: 7 }
        successCriteria:
          - { context: $response.body#/name, type: regex, condition: /^rex$/i }
          - { context: $response.body, type: jsonpath, condition: "$[?length(@.tags) == 1]" }
        outputs:
          name: $response.body#/name
      - stepId: place
        operationId: placeOrder
        parameters:
          - { name: Content-Type, in: header, value: application/json }
        requestBody:
          contentType: application/json
          payload: { petId: 7, quantity: 1 }
        outputs:
          orderId: $response.body#/id
    outputs:
      name: $steps.read.outputs.name
      orderId: $steps.place.outputs.orderId`),
    );
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("checks it clean, and serves it: the run sends what the document means and finishes with its outputs", async () => {
    const check = await stepgate("--check", "--strict", document);
    expect(check, check.stderr).toMatchObject({ code: 0, stdout: "1 stepfile checked: 0 errors, 0 warnings\n" });
    const server = await spawnStepgate([document], { STORE_KEY_API_KEY: KEY });
    let content: { state: string; outputs?: { outputs?: unknown } };
    try {
      content = (await server.client.callTool({ name: "spelled", arguments: {} })).structuredContent as typeof content;
    } finally {
      await server.close();
    }
    expect(content.state, server.stderr()).toBe("finished");
    expect(content.outputs?.outputs).toEqual({ name: "Rex", orderId: "ord-1" });
    expect(store.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body)}`)).toEqual(["GET /pets/7 undefined", 'POST /orders {"petId":7,"quantity":1}']);
  }, budget({ starts: 2, replies: 2 }));
});
