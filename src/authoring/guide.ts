// stepgate_guide: what an agent needs to write a stepfile without reading the
// repository: the workflow through the other authoring tools, a compact
// reference of the format, and the JSON Schema the loader checks structure
// with (the same object schema/stepfile.schema.json is written from).
import { stepfileStructure } from "../format/structure.js";
import { expressionReferenceMarkdown } from "./expression-reference.js";

export const WORKFLOW = [
  "outline: give stepgate_outline the procedure as markdown (a SKILL.md or an SOP). It returns a skeleton stepfile with one step per numbered item or second-level heading, each MUST/NEVER/ALWAYS rule as a gate to write, and TODO: markers where you must decide.",
  "inspect_api: for each API a step must call, give stepgate_inspect_api its OpenAPI document URL (you get the sha256 to pin, the operationIds and their arguments) or its MCP server URL (you get the tool names and each schema_sha256). For an API that is not public, or whose document you already have, give the document's text as document instead.",
  "write: fill in the skeleton: inputs, each step's produces schema, its tools, and a gate for every rule. Replace every TODO: marker.",
  "validate: stepgate_validate lists every issue with its path and line:column, the TODO markers left, and whether stepgate_try would start the draft, plus warnings for what loads but would silently fail: a var path (or a results or calls[].result path) its schemas rule out, with the nearest valid name; output. read inside map, filter or another iteration; a gate whose diagnosis would be its message alone. Repeat until it is clean.",
  "try: stepgate_try starts a run of the draft from its text; drive it with stepgate_call and stepgate_submit like any run, and check that each gate passes good output and fails bad output.",
  "test: write offline cases (recorded calls and outputs, each with the verdict it should get) and give them with the draft to stepgate_test; it plays them exactly like stepgate --test, without reaching any API.",
  "save: write the text to <id>.stepfile.yaml and serve it with stepgate <path>; its identity (sha256 of its canonical JSON) is what every run records.",
] as const;

export const FORMAT_REFERENCE = `A stepfile is one YAML or JSON document. Unknown fields are refused everywhere.

Top level: stepgate: "1" (required); id (required, lower-case letters, digits and -, at most 64; the MCP tool name); title; description (the tool description); inputs (required, a JSON Schema with type: object: the tool's arguments); settings; credentials; tools; steps (required, at least one, run in order); $defs (schemas reachable as #/$defs/<name>).

Steps: id (unique); exactly one of instructions (an agent step: text for the client's model, with {{inputs.x}} and {{steps.<earlier id>.x}} placeholders) or do (a mechanical step Stepgate runs itself); produces (required, a JSON Schema of type object the output must match); gates (agent steps need at least one); tools (the exposed operation names the step may call); retries (0..5 extra attempts, default 0); derive (output properties Stepgate computes from expressions); let (named expressions gates read as let.<name>); when (an expression over inputs and steps; the step is skipped unless it gives true).

Gates all block, and none is judged by a model. They see { inputs, steps, output, calls, let }, where calls is every call the step made through stepgate_call ({ tool, arguments, result, is_error }).
- schema: a JSON Schema the output must match.
- predicate: an expression that must give exactly true, with message (required), and optional explain (an expression whose value is added to the diagnosis).
- http: { tool: <verifier tool> } POSTs the step's data to a verifier, which answers { "pass": true } or { "pass": false, "message": ... }.
- approve: { message } asks a person through the client (MCP elicitation).
To check that an output used real API data, compare it with calls or with { results: ["<operation>", "<path>"] }.

Expressions are JSONLogic (var, ==, !=, and, or, !, in, merge, map, filter, some, all, none, cat, ...) plus Stepgate's operators: results, object, assign, length, unique, subset, difference, keys, lower, get, join, flatten, host, match_all, sort_by, time_add, time_diff. Every object in an expression is one operator; build objects with object. Regular expressions follow RE2 (no lookahead or backreferences).

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

export interface Guide {
  workflow: readonly string[];
  format: string;
  /** Every operator with signature, result, example and diagnosis (the same text as docs/stepfile.md's reference). */
  expressions: string;
  schema: unknown;
}

export function guide(): Guide {
  return { workflow: WORKFLOW, format: FORMAT_REFERENCE, expressions: expressionReferenceMarkdown(), schema: stepfileStructure };
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
    "## Expression reference",
    g.expressions,
    "## JSON Schema of stepfiles",
    JSON.stringify(g.schema, null, 2),
  ].join("\n");
}
