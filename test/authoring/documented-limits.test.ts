// Where the agent reads an operation it may call (a step's reply), the
// operation's documented limits are spelled out beside its input schema:
// a maximum, an enum, a pattern, what is required, the request body's
// fields included. Through the built CLI: a draft started with stepgate_try.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { argumentLimits } from "../../src/loader/value-checks.js";
import { mistake } from "../support/lend-books.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

// The fixture's agent step may call createLoan too; the mechanical steps and the approve gate go: nothing is fetched before the reply.
const DRAFT = mistake("    tools: [listBooks]\n", "    tools: [listBooks, createLoan]\n")
  .replace(/ {2}- id: shelf\n[\s\S]*?(?= {2}- id: pick\n)/, "")
  .replace(/ {2}- id: lend\n[\s\S]*$/, "")
  .replace("Pick one of these books for member {{inputs.member}}: {{steps.shelf.books}}.", "Pick a book for member {{inputs.member}}.")
  .replace(/ {4}let:\n {6}titles: .*\n/, "")
  .replace('explain: { cat: ["no listBooks call returned books; the shelf holds: ", { var: let.titles }] }', 'explain: "no listBooks call returned books"')
  .replace(/ {6}- id: person\n {8}approve: .*\n/, "") // this client cannot answer an approval, so the gate would fail preflight
  .replace("predicate: { subset: [[{ var: output.book }], { map: [{ var: steps.shelf.books }, { var: id }] }] }", 'predicate: { "!=": [{ var: output.book }, ""] }\n        explain: "name the book"');

describe("documented limits beside each operation the agent may call", () => {
  it("spells out the maximum, the enum, the body's pattern and what is required", () => {
    const listBooks = { type: "object", properties: { per_page: { type: "integer", minimum: 1, maximum: 100 }, status: { type: "string", enum: ["available", "lent"] } }, additionalProperties: false };
    expect(argumentLimits(listBooks)).toEqual(["per_page: integer, at least 1, at most 100", 'status: string, one of "available", "lent"']);
    const createLoan = {
      type: "object",
      required: ["body"],
      properties: { body: { $ref: "#/$defs/Loan" } },
      $defs: { Loan: { type: "object", required: ["book", "member"], properties: { book: { type: "string" }, member: { type: "string", pattern: "^M-[0-9]+$" } } } },
    };
    expect(argumentLimits(createLoan)).toEqual(["body.member: string, matching ^M-[0-9]+$", "required: body, body.book, body.member"]);
    expect(argumentLimits({ type: "object", properties: { q: { type: "string" } } })).toEqual([]);
  });

  let server: SpawnedStepgate;
  beforeAll(async () => {
    server = await spawnStepgate(["--draft-host", "127.0.0.1:8080"]);
  }, 60_000);
  afterAll(async () => {
    await server.close();
  });

  it("in the step reply a stepgate_try run gives", async () => {
    const validated = (await server.client.callTool({ name: "stepgate_validate", arguments: { text: DRAFT } })) as { structuredContent: { valid: boolean; issues: unknown[]; warnings?: unknown[] } };
    expect(validated.structuredContent, JSON.stringify(validated.structuredContent.issues)).toMatchObject({ valid: true });
    const reply = (await server.client.callTool({ name: "stepgate_try", arguments: { text: DRAFT, inputs: { member: "M-1" } } })) as { content: Array<{ text: string }> };
    const text = reply.content[0]!.text;
    expect(text).toContain("- listBooks");
    expect(text).toContain('  documented limits: per_page: integer, at least 1, at most 100; status: string, one of "available", "lent"');
    expect(text).toContain("  documented limits: body.member: string, matching ^M-[0-9]+$; body.days: integer, at least 1, at most 28; required: body, body.book, body.member");
  }, 60_000);
});
