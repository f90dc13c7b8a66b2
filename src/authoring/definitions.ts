// The authoring tools as MCP lists them: names, what each does, and their
// argument schemas. Plain data, like run-tools.ts, so this layer needs no MCP types.
// Each description states the tool's input limits (input-limits.ts), so a
// client learns them before its first refusal.
import { AUTHORING_COUNT_LIMITS as COUNT, AUTHORING_INPUT_LIMITS as SIZE, OUTLINE_LIMITS as OUTLINE } from "./input-limits.js";

const KiB = (bytes: number) => `${bytes / 1024} KiB`;
/** What a draft's text may hold, as the three tools that take one state it. */
const TEXT_LIMITS = `text at most ${KiB(SIZE.text)} (${SIZE.text} bytes of UTF-8) and ${COUNT.steps} steps`;

export const AUTHORING_TOOLS = [
  {
    name: "stepgate_guide",
    description:
      "How to write a stepfile: the authoring workflow (outline, inspect_api, write, validate, try, test, save), a compact reference of the format, and one complete small stepfile to start from. Give section for more: expressions, operators (the expression reference) or schema (the JSON Schema of stepfiles).",
    inputSchema: {
      type: "object",
      properties: { section: { type: "string", enum: ["expressions", "operators", "schema"], description: "One part of the reference; without it, the guide itself." } },
    },
  },
  {
    name: "stepgate_examples",
    description: "Without a name: the bundled catalog of stepfiles (name, category, title, what it needs). With a name: that stepfile's text and README.",
    inputSchema: { type: "object", properties: { name: { type: "string", description: "A catalog entry's name." } } },
  },
  {
    name: "stepgate_outline",
    description:
      `Turn a procedure written as markdown (a SKILL.md or an SOP, with optional YAML frontmatter) into a skeleton stepfile: one step per numbered item or second-level heading, each MUST/NEVER/ALWAYS rule as a gate to write, an approve gate wherever a person must approve, sign off or confirm, and TODO: markers where the author must decide. Limits: markdown at most ${KiB(OUTLINE.markdownBytes)} and a procedure of at most ${OUTLINE.steps} steps; larger is refused with what to do instead.`,
    inputSchema: { type: "object", required: ["markdown"], properties: { markdown: { type: "string", description: "The procedure as markdown." } } },
  },
  {
    name: "stepgate_inspect_api",
    description:
      "Inspect an API, without credentials: at a public https URL (or a host the operator granted with --draft-host), or an OpenAPI document given inline as document. An OpenAPI document: its sha256 to pin, servers, security schemes, and each operationId with its arguments and success response. An MCP server: its tools with each schema_sha256, or the token endpoint its authorization server advertises when it demands authorization. Give exactly one of url or document. Limits: a document (given or fetched) at most --response-bytes (10 MiB by default).",
    inputSchema: {
      type: "object",
      properties: {
        url: { type: "string", description: "The OpenAPI document's URL or the MCP server's URL." },
        document: { type: "string", description: "An OpenAPI 3.x document's JSON or YAML text (at most --response-bytes long), for an API whose document you already have or that is not public." },
      },
    },
  },
  {
    name: "stepgate_validate",
    description:
      `Check a draft stepfile (YAML or JSON text): every issue with its path and line:column, the TODO: markers left, or its id, identity and steps, its warnings (what loads but would silently fail, each with line:column and a rule id) and whether stepgate_try would start it. ignore turns warning rules off for this call, like stepgate --check --ignore. Limits: ${TEXT_LIMITS}; larger is refused naming the bound.`,
    inputSchema: {
      type: "object",
      required: ["text"],
      properties: {
        text: { type: "string", description: "The draft's YAML or JSON text." },
        ignore: { type: "array", items: { type: "string" }, description: "Warning rule ids (as each warning names them, e.g. unexplained-gate) to leave out of this answer; an error cannot be turned off." },
      },
    },
  },
  {
    name: "stepgate_try",
    description: `Start a run of a draft stepfile from its text, without serving it. Drive the run with stepgate_call and stepgate_submit like any run. Limits: ${TEXT_LIMITS}; larger is refused naming the bound.`,
    inputSchema: {
      type: "object",
      required: ["text"],
      properties: {
        text: { type: "string", description: "The draft's YAML or JSON text." },
        inputs: { type: "object", description: "The run's inputs, matching the draft's inputs schema." },
      },
    },
  },
  {
    name: "stepgate_test",
    description:
      `Play offline cases against a draft (text) or a served stepfile (stepfile), exactly like stepgate --test: each case is a run with recorded calls and outputs, and each entry's expected verdict (pass, or { fail: [gate ids] }) is compared with the engine's. No request is made. Returns the per-case report as text and data. Limits: ${TEXT_LIMITS}; cases at most ${KiB(SIZE.cases)} and ${COUNT.cases} cases; accepted at most ${KiB(SIZE.accepted)}; mutants at most ${COUNT.mutants}; larger is refused naming the bound.`,
    inputSchema: {
      type: "object",
      required: ["cases"],
      properties: {
        cases: { type: "string", description: "A cases file's YAML or JSON text: cases: [{ name, inputs?, steps: [{ step, calls?: [{ tool, arguments?, result, is_error? }], output, expect: pass | { fail: [gate ids] } }] }]." },
        text: { type: "string", description: "The draft's YAML or JSON text." },
        stepfile: { type: "string", description: "A served stepfile's tool name (its id), instead of text." },
        mutate: {
          type: "boolean",
          description:
            "Once the cases agree: play wrong outputs derived from each entry expected to pass (an item dropped or swapped for another value of that field in the evidence, a number off by one or scaled, a string cut short, an API result come back empty...) through the same gates, like stepgate --test --mutate. Survivors are wrong outputs every gate let through: strengthen the gates until none is left. Also reports gates that refuse a likely-equivalent output (the same instant written another way).",
        },
        mutants: { type: "integer", minimum: 1, maximum: COUNT.mutants, description: `With mutate: wrong mutants played per entry at most (default 24, at most ${COUNT.mutants}).` },
        seed: { type: "integer", minimum: 0, description: "With mutate: which mutants are chosen when there are more (default 1)." },
        accepted: { type: "string", description: "With mutate: a <id>.mutants.yaml text, accept: [{ step, mutation, path?, case?, reason }], listing survivors judged harmless." },
      },
    },
  },
] as const;

export type AuthoringToolName = (typeof AUTHORING_TOOLS)[number]["name"];

export function isAuthoringTool(name: string): name is AuthoringToolName {
  return AUTHORING_TOOLS.some((t) => t.name === name);
}
