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
  "outline: give stepgate_outline the procedure as markdown (a SKILL.md or an SOP): you get a skeleton: a step per numbered item or second-level heading, each MUST/NEVER/ALWAYS rule a gate to write, approve gates, TODO: markers.",
  "inspect_api: give stepgate_inspect_api each API's OpenAPI document URL (the sha256 to pin, its operationIds, arguments and responses) or MCP server URL (tool names, each schema_sha256); for a private API, its text as document.",
  "write: fill in inputs, each step's produces, its tools, and a gate for every rule; replace every TODO: marker.",
  "validate: stepgate_validate lists each issue (path, line:column, rule id), the TODO markers left, whether stepgate_try would start the draft, and warnings for what would fail at run time (an undeclared path, arguments an operation refuses, a write an agent could make unseen). Repeat until clean; stepgate --check is the same in CI.",
  "try: stepgate_try runs the draft; drive it with stepgate_call and stepgate_submit and check each gate passes good output and fails bad.",
  "test: stepgate_test plays offline cases (recorded calls and outputs with expected verdicts) against the draft, as --test does, reaching no API.",
  "mutate: stepgate_test with mutate: true plays wrong outputs made from passing entries (an evidence id swapped in, an item dropped or doubled, a number off, an empty API list); add a gate per survivor, or accept a harmless one with a reason. A refused likely-equivalent (an instant as +00:00): compare values, not spellings.",
  "save: write it to <id>.stepfile.yaml and serve it with stepgate <path>; each run records its identity (the sha256 of its canonical JSON).",
] as const;

export const FORMAT_REFERENCE = `A stepfile is one YAML or JSON document. Unknown fields are refused everywhere.

Top level: stepgate: "1" (required); id (required, lower-case letters, digits and -, at most 64; the MCP tool name); title; description (the tool description); inputs (required, a JSON Schema with type: object: the tool's arguments); settings; credentials; tools; steps (required, at least one, run in order); $defs (schemas reachable as #/$defs/<name>).

Steps: id (unique); exactly one of instructions (an agent step: text for the client's model, with {{inputs.x}} and {{steps.<earlier id>.x}} placeholders) or do (a mechanical step Stepgate runs itself); produces (required, a JSON Schema of type object the output must match); gates (agent steps need at least one); tools (the exposed operation names the step may call); retries (0..5 extra attempts, default 0); derive (output properties Stepgate computes from expressions); let (named expressions gates read as let.<name>); when (an expression over inputs and steps; the step is skipped unless it gives true).

Gates all block, and none is judged by a model. They see { inputs, steps, output, calls, let }, where calls is every call the step made through stepgate_call ({ tool, arguments, result, is_error }).
- schema: a JSON Schema the output must match.
- predicate: an expression that must give exactly true, with message (required), and optional explain (an expression whose value is added to the diagnosis).
- http: { tool: <verifier tool> } POSTs the step's data to a verifier, which answers { "pass": true } or { "pass": false, "message": ... }.
- approve: { message } asks a person through the client (MCP elicitation), showing the message, then the output; use it wherever a person must approve. Placeholders are not filled in messages.
To check that an output used real API data, compare it with calls or with { results: ["<operation>", "<path>"] }.

Expressions are JSONLogic (var, ==, and, or, !, in, map, filter, some, all, cat, ...) plus Stepgate's operators: ${STEPGATE_OPERATORS.join(", ")}. Every object in an expression is one operator; build objects with object. Regular expressions follow RE2 (no lookahead or backreferences).

Mechanical steps: do: { calls: [{ id, operation, arguments, each?, accept? }], output } where arguments and output are templates over { inputs, steps, responses }: a one-key operator object is evaluated, { literal: x } is x as written, other objects and arrays are walked. each (a list or an expression) repeats the call per element, bound as item in its arguments ({ var: item.id }); responses.<call id> is then the list of results. accept: HTTP error statuses kept as responses. No tools, retries, derive or let in a mechanical step.
A write (POST/PUT/PATCH/DELETE, an MCP tool not readOnlyHint; no effect: read) goes in a mechanical step after approval: an agent may call it with any arguments, any number of times, before any gate.

Tools are remote only, at https:// URLs (http:// only for localhost, 127.0.0.1 and [::1]). Each has exactly one of:
- openapi: { server, url + sha256 } or { server, document }: each exposed operationId becomes an operation.
- mcp: { url }: a remote MCP server (Streamable HTTP); exposed names are its tool names, input schemas pinned with { name, schema_sha256 }.
- verifier: { url }: for http gates; never shown to the client.
and credential (one credential name) and exposes (names, or { name, schema_sha256?, select?, effect: read }).

Credentials: { kind: api_key | bearer | oauth2 | basic, hosts, description, scopes (oauth2 only), token_url (oauth2 only) }. The value comes from <NAME>_API_KEY in Stepgate's environment and goes only to hosts; the file never holds a secret.
Settings: { description, pattern? }: per-operator values (a site name) from the environment variable <NAME>, used as {name} only in hosts or ports of tool URLs and credential hosts.

stepgate_try runs a draft only if it calls public https URLs or hosts granted with --draft-host host[:port], and uses only credentials and settings granted with --draft-credential name=host[,host] (its hosts within the grant, no token_url) and --draft-setting name. A refused draft can still be tested offline, or saved and served.

Replies: completed lists the mechanical steps Stepgate ran since your last call.`;

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
