// stepgate_guide: what an agent needs to write a stepfile without reading the
// repository. One reply of at most 12 KB: the workflow through the other
// authoring tools, a compact reference of the format, and one complete small
// stepfile to start from. More on request, each section a reply of its own:
// the expression reference (in two parts) and the JSON Schema the loader
// checks structure with (the object schema/stepfile.schema.json is written
// from, without its hover text).
import { stepfileStructure } from "../format/structure.js";
import { expressionReferenceMarkdown, STEPGATE_OPERATORS } from "./expression-reference.js";
import { GUIDE_EXAMPLE } from "./guide-example.js";

export const WORKFLOW = [
  "outline: give stepgate_outline the procedure as markdown (a SKILL.md or an SOP). It returns a skeleton stepfile with one step per numbered item or second-level heading, each MUST/NEVER/ALWAYS rule as a gate to write, an approve gate wherever a person must approve, sign off or confirm, and TODO: markers where you must decide.",
  "inspect_api: for each API a step must call, give stepgate_inspect_api its OpenAPI document URL (you get the sha256 to pin, the operationIds and their arguments) or its MCP server URL (you get the tool names and each schema_sha256). For an API that is not public, or whose document you already have, give the document's text as document instead.",
  "write: fill in the skeleton: inputs, each step's produces schema, its tools, and a gate for every rule. Replace every TODO: marker.",
  "validate: stepgate_validate lists every issue with its path and line:column, the TODO markers left, and whether stepgate_try would start the draft, plus warnings for what loads but would fail at run time: a path its schemas or the API's document do not declare; mechanical call arguments the operation refuses; output. read inside an iteration; a placeholder shown as written; a gate that would explain nothing. Repeat until it is clean (stepgate --check gives the same findings in CI).",
  "try: stepgate_try starts a run of the draft from its text; drive it with stepgate_call and stepgate_submit like any run, and check that each gate passes good output and fails bad output.",
  "test: write offline cases (recorded calls and outputs, each with the verdict it should get) and give them with the draft to stepgate_test; it plays them exactly like stepgate --test, without reaching any API.",
  "mutate: once the cases agree, call stepgate_test again with mutate: true. It plays wrong outputs derived from each passing entry (an id swapped for another from the evidence, an item dropped or listed twice, a number off by one or ten times too big, a string cut short, an API list come back empty) through your gates. Each survivor is a wrong output every gate let through: add the gate that refuses it (which ids, not only how many) and repeat until none survives; a survivor that is truly harmless goes in accepted with a reason. A gate reported as refusing a likely-equivalent output (the same instant written with +00:00, a rounded number) is too strict: compare values, not spellings.",
  "save: write the text to <id>.stepfile.yaml and serve it with stepgate <path>; its identity (sha256 of its canonical JSON) is what every run records.",
] as const;

export const FORMAT_REFERENCE = `A stepfile is one YAML or JSON document. Unknown fields are refused everywhere.

Top level: stepgate: "1" (required); id (required, lower-case letters, digits and -, at most 64; the MCP tool name); title; description (the tool description); inputs (required, a JSON Schema with type: object: the tool's arguments); settings; credentials; tools; steps (required, at least one, run in order); $defs (schemas reachable as #/$defs/<name>).

Steps: id (unique); exactly one of instructions (an agent step: text for the client's model, with {{inputs.x}} and {{steps.<earlier id>.x}} placeholders) or do (a mechanical step Stepgate runs itself); produces (required, a JSON Schema of type object the output must match); gates (agent steps need at least one); tools (the exposed operation names the step may call); retries (0..5 extra attempts, default 0); derive (output properties Stepgate computes from expressions); let (named expressions gates read as let.<name>); when (an expression over inputs and steps; the step is skipped unless it gives true).

Gates all block, and none is judged by a model. They see { inputs, steps, output, calls, let }, where calls is every call the step made through stepgate_call ({ tool, arguments, result, is_error }).
- schema: a JSON Schema the output must match.
- predicate: an expression that must give exactly true, with message (required), and optional explain (an expression whose value is added to the diagnosis).
- http: { tool: <verifier tool> } POSTs the step's data to a verifier, which answers { "pass": true } or { "pass": false, "message": ... }.
- approve: { message } asks a person through the client (MCP elicitation), showing the message and then the output. Use it wherever a person must approve, sign off or confirm. Placeholders are filled in instructions only, never in messages.
To check that an output used real API data, compare it with calls or with { results: ["<operation>", "<path>"] }.

Expressions are JSONLogic (var, ==, !=, and, or, !, in, merge, map, filter, some, all, none, cat, ...) plus Stepgate's operators: ${STEPGATE_OPERATORS.join(", ")}. Every object in an expression is one operator; build objects with object. Regular expressions follow RE2 (no lookahead or backreferences).

Mechanical steps: do: { calls: [{ id, operation, arguments, each?, accept? }], output } where arguments and output are templates over { inputs, steps, responses }: a one-key operator object is evaluated, { literal: x } is x as written, other objects and arrays are walked.

Tools are remote only, at https:// URLs (http:// only for localhost, 127.0.0.1 and [::1]). Each has exactly one of:
- openapi: { server, url + sha256 } or { server, document }: each exposed operationId becomes an operation. stepgate_inspect_api gives the sha256 of a document URL.
- mcp: { url }: a remote MCP server over Streamable HTTP; exposed names are its tool names; pin a tool's input schema with { name, schema_sha256 }.
- verifier: { url }: for http gates; never shown to the client.
and credential (one credential name) and exposes (names, or { name, schema_sha256?, select?, effect: read }).

Credentials: { kind: api_key | bearer | oauth2 | basic, hosts, description, scopes (oauth2 only), token_url (oauth2 only) }. The value comes from <NAME>_API_KEY in Stepgate's environment and goes only to hosts; the file never holds a secret.
Settings: { description, pattern? }: per-operator values such as a site name, from the environment variable <NAME>, usable as {name} only in the host or port of tool URLs and credential hosts.

Drafts given to stepgate_try may call only public https URLs and the hosts the operator granted with --draft-host host[:port] (for an API on this machine or a private network), and may use only credentials and settings the operator granted with --draft-credential name=host[,host] and --draft-setting name; a credential's hosts must be within its grant and it may not have a token_url. A refused draft can still be checked offline with stepgate_test, or saved and served.

Replies: completed lists the mechanical steps Stepgate ran itself since your last call (empty when there were none).`;

/** What stepgate_guide serves on request, beyond its first reply. */
export const GUIDE_SECTIONS = {
  expressions: "what var reads where, what gates see, how a diagnosis is built, and JSONLogic's operators with examples",
  operators: "Stepgate's operators (results, join, subset, ...) with examples and what each adds to a diagnosis",
  schema: "the JSON Schema of stepfiles",
} as const;

export type GuideSection = keyof typeof GUIDE_SECTIONS;

export function isGuideSection(name: unknown): name is GuideSection {
  return typeof name === "string" && Object.hasOwn(GUIDE_SECTIONS, name);
}

export interface Guide {
  workflow: readonly string[];
  format: string;
  /** The sections given on request, by name, with what each holds. */
  sections: Readonly<Record<GuideSection, string>>;
  /** One complete small stepfile: a mechanical step, an agent step with evidence gates, an approve gate. */
  example: string;
}

export function guide(): Guide {
  return { workflow: WORKFLOW, format: FORMAT_REFERENCE, sections: GUIDE_SECTIONS, example: GUIDE_EXAMPLE };
}

export function guideText(g: Guide): string {
  return [
    "# Writing a stepfile with Stepgate",
    "",
    "## Workflow",
    ...g.workflow.map((s, i) => `${i + 1}. ${s}`),
    "",
    "## Format",
    g.format,
    "",
    "## More, on request",
    ...Object.entries(g.sections).map(([name, what]) => `- stepgate_guide with section: "${name}": ${what}.`),
    "",
    "## A complete stepfile",
    "```yaml",
    g.example.trimEnd(),
    "```",
  ].join("\n");
}

/** One section's reply: its text, and its data (the schema itself for "schema"). */
export function guideSection(section: GuideSection): { text: string; data: Record<string, unknown> } {
  const sections = Object.keys(GUIDE_SECTIONS);
  switch (section) {
    case "expressions":
      return { text: `# Stepgate expressions\n\n${expressionReferenceMarkdown("jsonlogic")}\nStepgate's own operators: stepgate_guide with section: "operators".`, data: { section, sections } };
    case "operators":
      return { text: `# Stepgate's operators\n\n${expressionReferenceMarkdown("stepgate")}\nHow var scopes and what gates read: stepgate_guide with section: "expressions".`, data: { section, sections } };
    case "schema":
      // Compact: the same object as pretty-printed, in half the bytes.
      return { text: `# JSON Schema of stepfiles (2020-12)\n\n${JSON.stringify(stepfileStructure)}`, data: { section, sections, schema: stepfileStructure } };
  }
}
