// Hover text for editors: a description for every field of the stepfile
// structure, added by scripts/write-schema.ts to schema/stepfile.schema.json
// only. The loader's own structure (structure.ts) stays as it is: its
// validator is generated at build time and `stepgate_guide` serves it, so
// descriptions there would only grow the bundle and the guide. Nothing in
// the runtime imports this file.
//
// Keys are paths into the structure, dot-separated; a path that leads
// nowhere throws, so the text cannot drift from the structure it describes.

export const structureDescriptions: Readonly<Record<string, string>> = {
  "": "A stepfile: a procedure an agent follows one gated step at a time, served by Stepgate as one MCP tool. See docs/stepfile.md.",
  "properties.stepgate": 'The format version. Must be the string "1".',
  "properties.id": "Identifier of the stepfile (lower case, digits and -, at most 64 characters); the MCP tool name.",
  "properties.title": "A name for people; the MCP tool's title.",
  "properties.description": "The MCP tool description. Without one, the title is used, then `Run the stepfile <id>`.",
  "properties.inputs": "JSON Schema (2020-12) of the tool's inputs, with type: object. Read as {{inputs.<name>}} in instructions and { var: inputs.<name> } in expressions.",
  "properties.settings": "Settings the stepfile reads from the environment (<NAME>, upper case, - as _), by name: host names and other values a URL can name as {setting}.",
  "properties.credentials": "Credentials, by name: each read from <NAME>_API_KEY (or an oauth2 refresh token) and sent only to its hosts.",
  "properties.tools": "Remote tools, by name: an OpenAPI document, a remote MCP server or an http verifier. Steps call the operations a tool exposes.",
  "properties.steps": "The steps, run in file order. An agent step has instructions and gates; a mechanical step has do, and Stepgate runs it itself.",
  "properties.$defs": "Named JSON Schemas that any schema in the file can use as #/$defs/<name>.",
  "$defs.objectSchema": "A JSON Schema (2020-12) of an object: it must say type: object.",
  "$defs.objectSchema.properties.type": 'Must be "object".',
  "$defs.setting": "A setting: read from the environment variable <NAME> at preflight, checked against its pattern.",
  "$defs.setting.properties.description": "What the setting is and where to find its value; shown when it is missing.",
  "$defs.setting.properties.pattern": "A regular expression (RE2) the whole value must match. A setting that names a host should have one.",
  "$defs.credential": "A credential: a secret Stepgate holds and sends only to its hosts; the agent never sees it.",
  "$defs.credential.properties.kind": "How it is sent: api_key (a header or query parameter the OpenAPI document names), bearer (Authorization: Bearer), oauth2 (refresh token exchanged at token_url) or basic.",
  "$defs.credential.properties.hosts": "The only hosts the secret is sent to (a host may be {setting}). No wildcards.",
  "$defs.credential.properties.description": "What the secret is, which scopes or permissions it needs and where to create it; shown when it is missing.",
  "$defs.credential.properties.scopes": "oauth2 only: the scopes to ask for.",
  "$defs.credential.properties.token_url": "oauth2 only: the token endpoint (https) where the refresh token is exchanged; checked against the issuer's metadata.",
  "$defs.tool": "A remote tool: exactly one of openapi, mcp or verifier.",
  "$defs.tool.properties.openapi": "An HTTP API described by an OpenAPI 3.x document, inline or fetched by url and pinned by sha256.",
  "$defs.tool.properties.openapi.properties.server": "The base URL requests go to (https; a host may be {setting}).",
  "$defs.tool.properties.openapi.properties.document": "The OpenAPI document inline: the operations, parameters, request bodies and responses the stepfile uses.",
  "$defs.tool.properties.openapi.properties.document.properties.openapi": "The OpenAPI version, 3.0.x or 3.1.x.",
  "$defs.tool.properties.openapi.properties.document.properties.paths": "The paths and their operations; each exposed operation needs an operationId.",
  "$defs.tool.properties.openapi.properties.url": "Where to fetch the OpenAPI document at preflight, instead of document.",
  "$defs.tool.properties.openapi.properties.sha256": "sha256:<64 hex> of the document fetched from url; a different document is refused.",
  "$defs.tool.properties.mcp": "A remote MCP server over Streamable HTTP.",
  "$defs.tool.properties.mcp.properties.url": "The MCP server's endpoint (https).",
  "$defs.tool.properties.verifier": "An endpoint http gates call with the step's output; it answers pass or fail with a message.",
  "$defs.tool.properties.verifier.properties.url": "The verifier's URL (https; a host may be {setting}).",
  "$defs.tool.properties.credential": "The name of the credential this tool's requests carry.",
  "$defs.tool.properties.exposes": "The operations (OpenAPI operationIds or MCP tool names) steps may call; required for openapi and mcp.",
  "$defs.tool.properties.exposes.items": "An operation name, or { name, select, effect, schema_sha256 }.",
  "$defs.tool.properties.exposes.items.anyOf.0": "An exposed operation name.",
  "$defs.tool.properties.exposes.items.anyOf.1": "An exposed operation with options.",
  "$defs.tool.properties.exposes.items.anyOf.1.properties.name": "The operation name (OpenAPI operationId or MCP tool name).",
  "$defs.tool.properties.exposes.items.anyOf.1.properties.schema_sha256": "MCP tools only: sha256:<64 hex> of the tool's input schema; preflight refuses a changed tool.",
  "$defs.tool.properties.exposes.items.anyOf.1.properties.select": "An expression over the parsed result: the agent is shown only its value; gates still get the whole result.",
  "$defs.tool.properties.exposes.items.anyOf.1.properties.effect": 'Only "read": a POST or PATCH that changes nothing (a search), retried like a GET.',
  "$defs.call": "A call a mechanical step makes itself.",
  "$defs.call.properties.id": "The call's id in this step; its result is responses.<id> (a list when the call has each).",
  "$defs.call.properties.operation": "The exposed operation to call.",
  "$defs.call.properties.arguments": "A template of the arguments: path, query and header parameters by name, and body. Expressions read { inputs, steps, responses } and item.",
  "$defs.call.properties.each": "A list (or a template that gives one): the call is made once per element, bound as item. An empty list makes no request.",
  "$defs.call.properties.accept": "HTTP error statuses (400-599) kept as the response instead of ending the run.",
  "$defs.gate": "A check the step's output must pass: one of predicate, schema, http or approve.",
  "$defs.gate.properties.id": "The gate's id, named in verdicts and failures.",
  "$defs.gate.properties.schema": "A JSON Schema the output must match.",
  "$defs.gate.properties.predicate": "An expression that must give true. It reads { inputs, steps, output, calls, let }.",
  "$defs.gate.properties.message": "Shown when the predicate fails, then a space and the explain (or the predicate's own diagnosis): end it with : or ; when an explain follows.",
  "$defs.gate.properties.explain": "An expression that says what was wrong (a string as it is, anything else as JSON), appended to the message.",
  "$defs.gate.properties.http": "Sends the output to a verifier tool, which answers pass or fail.",
  "$defs.gate.properties.http.properties.tool": "The verifier tool's name.",
  "$defs.gate.properties.approve": "A person approves or declines the output (MCP elicitation) before the run goes on.",
  "$defs.gate.properties.approve.properties.message": "What the person is asked, shown as written beside the output.",
  "$defs.step": "A step: an agent step (instructions) or a mechanical step (do).",
  "$defs.step.properties.id": "Identifier of the step, unique in the file; its accepted output is steps.<id> later.",
  "$defs.step.properties.instructions": "What the agent must do, with {{placeholders}} such as {{inputs.x}} and {{steps.<id>.y}}.",
  "$defs.step.properties.do": "A mechanical step: calls Stepgate makes itself and an output it computes, with no agent.",
  "$defs.step.properties.do.properties.calls": "The calls, run in order; later calls and output read earlier ones as responses.<id>.",
  "$defs.step.properties.do.properties.output": "A template of the step's output over { inputs, steps, responses }.",
  "$defs.step.properties.tools": "Operations the agent may call in this step through stepgate_call (default: none).",
  "$defs.step.properties.produces": "JSON Schema (type: object) the step's output must match; checked before the gates.",
  "$defs.step.properties.gates": "The checks the output must pass, in order; an agent step needs at least one.",
  "$defs.step.properties.retries": "Extra attempts after a failed submission, 0 to 5 (default 0).",
  "$defs.step.properties.derive": "Output fields Stepgate computes from the submission, by name; the agent must not send them.",
  "$defs.step.properties.let": "Named values the gates read as let.<name>, computed from the submission.",
  "$defs.step.properties.when": "An expression: the step runs only when it gives exactly true.",
};

/** A copy of the structure with every description above set at its path. */
export function describedStructure(structure: unknown): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(structure)) as Record<string, unknown>;
  for (const [path, description] of Object.entries(structureDescriptions)) {
    let node: unknown = copy;
    for (const key of path === "" ? [] : path.split(".")) {
      node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
    }
    if (node === null || typeof node !== "object" || Array.isArray(node)) throw new Error(`structure description for ${path || "(top level)"}: no schema there`);
    (node as Record<string, unknown>).description = description;
  }
  return copy;
}
