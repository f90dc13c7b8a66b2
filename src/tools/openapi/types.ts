// The shapes this module hands to the rest of Stepgate. They are plain data
// (JSON-serialisable) so an operation can be listed, logged and compared.

import type { CredentialPlacement } from "../../egress/index.js";

/** Where egress attaches a tool's credential: egress's own type, so the two cannot drift. */
export type Placement = CredentialPlacement;

import type { ParamLocation } from "../../format/openapi-parameters.js";
export type { ParamLocation } from "../../format/openapi-parameters.js";
import type { BodySpec } from "../../format/openapi-request-body.js";
export type { BodySpec } from "../../format/openapi-request-body.js";

/** A JSON Schema 2020-12 object (or boolean schema). */
export type JsonSchema = Record<string, unknown> | boolean;

export interface ParamSpec {
  /** The parameter's name on the wire. */
  name: string;
  in: ParamLocation;
  /**
   * The property of the call's arguments that carries the value: `name`,
   * or `<in>.<name>` when the bare name is taken (see input-schema naming).
   */
  argument: string;
  required: boolean;
  schema: JsonSchema;
  /** OpenAPI `style`, defaulted per location (form for query/cookie, simple otherwise). */
  style: string;
  explode: boolean;
  /** Set when the schema admits exactly one value: always sent, never asked for. */
  fixed?: { value: unknown };
  /** Set for a parameter declared with `content`: its value is sent as JSON text. */
  contentType?: string;
}

export interface OperationSpec {
  /** The operationId. */
  name: string;
  /** Upper-case HTTP method. */
  method: string;
  pathTemplate: string;
  description: string;
  /** JSON Schema 2020-12 for the call's arguments, as the client is shown it. */
  inputSchema: Record<string, unknown>;
  /** What arguments are checked against: `inputSchema` that also admits each one-value parameter with its value. */
  argumentSchema: Record<string, unknown>;
  params: ParamSpec[];
  body?: BodySpec;
  /** The Accept header to send, from the media types of the success responses. */
  accept: string;
  /**
   * Where the credential goes, in the document's order of preference.
   * `null` when neither the operation nor the document declares security;
   * `[]` when it declares that no credential is needed (`security: []`).
   */
  security: Placement[] | null;
}

/** A stepfile tool's `openapi` field. */
export type OpenApiToolSpec =
  | { server: string; document: Record<string, unknown> }
  | { server: string; url: string; sha256: string };

/** Fetches a document's bytes; injected by egress (no credential, no host check). */
export type FetchBytes = (url: string) => Promise<Uint8Array>;
