// The structure of stepfile format "1" as one JSON Schema (2020-12). The
// loader validates every document against it, and schema/stepfile.schema.json
// (for editors) is this object written out; a test keeps the two identical.
// Rules that span fields (section 8 of the format) live in rules.ts. Only
// what the format states is refused here: gate and call ids, let names and
// messages are any strings (the format gives them no pattern); warnings.ts
// reports the ones no expression or report could name.

const identifier = { type: "string", pattern: "^[a-z][a-z0-9-]*$", maxLength: 64 } as const;
const exposedName = { type: "string", pattern: "^[a-zA-Z0-9_-]{1,64}$" } as const;
const digest = { type: "string", pattern: "^sha256:[0-9a-f]{64}$" } as const;
const url = { type: "string", minLength: 1 } as const;
/** A JSON Schema given by the author: checked by compiling it, not here. */
const jsonSchema = { type: ["object", "boolean"] } as const;
/** An expression: any JSON; its operators are checked at load by the expression layer. */
const expression = {} as const;
/** A name or text the format gives no pattern or length: any string. */
const text = { type: "string" } as const;

function closed(properties: Record<string, unknown>, required: string[] = []) {
  return { type: "object", properties, required, additionalProperties: false };
}

function mapOf(value: unknown, keys: unknown = identifier) {
  return { type: "object", propertyNames: keys, additionalProperties: value };
}

export const stepfileStructure = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "Stepgate stepfile, format 1",
  ...closed(
    {
      stepgate: { const: "1", description: "Format version." },
      id: { ...identifier, description: "The MCP tool name of this stepfile." },
      title: { type: "string" },
      description: { type: "string", description: "The MCP tool description." },
      inputs: { $ref: "#/$defs/objectSchema", description: "JSON Schema of the tool's inputs (type: object)." },
      settings: mapOf({ $ref: "#/$defs/setting" }),
      credentials: mapOf({ $ref: "#/$defs/credential" }),
      tools: mapOf({ $ref: "#/$defs/tool" }),
      steps: { type: "array", minItems: 1, items: { $ref: "#/$defs/step" } },
      $defs: mapOf(jsonSchema, text),
    },
    ["stepgate", "id", "inputs", "steps"],
  ),
  $defs: {
    objectSchema: {
      type: "object",
      required: ["type"],
      properties: { type: { const: "object" } },
    },
    setting: closed({ description: text, pattern: { type: "string" } }, ["description"]),
    credential: closed(
      {
        kind: { enum: ["api_key", "bearer", "oauth2", "basic"] },
        hosts: { type: "array", minItems: 1, uniqueItems: true, items: { type: "string", minLength: 1 } },
        description: { type: "string", minLength: 1 },
        scopes: { type: "array", items: { type: "string" } },
        token_url: url,
      },
      ["kind", "hosts", "description"],
    ),
    tool: closed({
      openapi: closed({
        server: url,
        document: { type: "object", required: ["openapi", "paths"], properties: { openapi: { type: "string" }, paths: { type: "object" } } },
        url,
        sha256: digest,
      }, ["server"]),
      mcp: closed({ url }, ["url"]),
      verifier: closed({ url }, ["url"]),
      credential: identifier,
      exposes: {
        type: "array",
        items: {
          anyOf: [
            exposedName,
            closed({ name: exposedName, schema_sha256: digest, select: expression, effect: { const: "read" } }, ["name"]),
          ],
        },
      },
    }),
    call: closed(
      {
        id: text,
        operation: exposedName,
        arguments: expression,
        each: expression,
        accept: { type: "array", items: { type: "integer", minimum: 400, maximum: 599 } },
      },
      ["id", "operation"],
    ),
    gate: closed(
      {
        id: text,
        schema: jsonSchema,
        predicate: expression,
        message: text,
        explain: expression,
        http: closed({ tool: identifier }, ["tool"]),
        approve: closed({ message: text }, ["message"]),
      },
      ["id"],
    ),
    step: closed(
      {
        id: identifier,
        instructions: text,
        do: closed({ calls: { type: "array", items: { $ref: "#/$defs/call" } }, output: expression }, ["output"]),
        tools: { type: "array", items: exposedName },
        produces: { $ref: "#/$defs/objectSchema" },
        gates: { type: "array", items: { $ref: "#/$defs/gate" } },
        retries: { type: "integer", minimum: 0, maximum: 5 },
        derive: mapOf(expression, text),
        let: mapOf(expression, text),
        when: expression,
      },
      ["id", "produces"],
    ),
  },
} as const;
