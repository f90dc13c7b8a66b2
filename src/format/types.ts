// The parsed document of a stepfile, as the structure schema admits it.
// Loaded stepfiles are frozen; these types describe the raw fields only.

export type JsonSchema = Record<string, unknown> | boolean;
export type Expression = unknown;

export interface SettingDef {
  description: string;
  pattern?: string;
}

export type CredentialKind = "api_key" | "bearer" | "oauth2" | "basic";

export interface CredentialDef {
  kind: CredentialKind;
  hosts: string[];
  description: string;
  scopes?: string[];
  token_url?: string;
}

export interface ExposedObject {
  name: string;
  schema_sha256?: string;
  select?: Expression;
  effect?: "read";
}
export type Exposed = string | ExposedObject;

export interface ToolDef {
  openapi?: { server: string; document?: Record<string, unknown>; url?: string; sha256?: string };
  mcp?: { url: string };
  verifier?: { url: string };
  credential?: string;
  exposes?: Exposed[];
}

export interface CallDef {
  id: string;
  operation: string;
  arguments?: unknown;
  each?: unknown;
  accept?: number[];
}

export interface GateDef {
  id: string;
  schema?: JsonSchema;
  predicate?: Expression;
  message?: string;
  explain?: Expression;
  http?: { tool: string };
  approve?: { message: string };
}

export interface StepDef {
  id: string;
  instructions?: string;
  do?: { calls?: CallDef[]; output: unknown };
  tools?: string[];
  produces: Record<string, unknown>;
  gates?: GateDef[];
  retries?: number;
  derive?: Record<string, Expression>;
  let?: Record<string, Expression>;
  when?: Expression;
}

export interface StepfileDocument {
  stepgate: "1";
  id: string;
  title?: string;
  description?: string;
  inputs: Record<string, unknown>;
  settings?: Record<string, SettingDef>;
  credentials?: Record<string, CredentialDef>;
  tools?: Record<string, ToolDef>;
  steps: StepDef[];
  $defs?: Record<string, JsonSchema>;
}

export function exposedName(e: Exposed): string {
  return typeof e === "string" ? e : e.name;
}

export function gateKind(gate: GateDef): "schema" | "predicate" | "http" | "approve" | undefined {
  const kinds = (["schema", "predicate", "http", "approve"] as const).filter((k) => gate[k] !== undefined);
  return kinds.length === 1 ? kinds[0] : undefined;
}

/** The field of a tool of `kind` that holds the URL it is reached at: an OpenAPI tool's server, else its url. */
export function toolUrlField(kind: "openapi" | "mcp" | "verifier"): "server" | "url" {
  return kind === "openapi" ? "server" : "url";
}

/** The URL a tool of `kind` is reached at (toolUrlField). */
export function toolUrl(tool: ToolDef, kind: "openapi" | "mcp" | "verifier"): string {
  return kind === "openapi" ? tool.openapi!.server : kind === "mcp" ? tool.mcp!.url : tool.verifier!.url;
}

/** A tool's one kind; undefined when it has none or several (which the format's rules refuse). */
export function toolKind(tool: ToolDef): "openapi" | "mcp" | "verifier" | undefined {
  const kinds = (["openapi", "mcp", "verifier"] as const).filter((k) => tool[k] !== undefined);
  return kinds.length === 1 ? kinds[0] : undefined;
}
