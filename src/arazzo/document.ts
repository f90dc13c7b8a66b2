// Reading an Arazzo document: YAML or JSON with positions (the stepfile
// parser, src/format/source.ts), recognised by its top-level `arazzo` field,
// and validated against the specification's own JSON Schema for its minor
// version (src/arazzo/schemas/, from OAI/Arazzo-Specification), corrected
// where it contradicts the specification (schema-corrections.ts).
//
// Why ajv and that schema, not ApiDOM's Arazzo adapters: the adapters
// (@swagger-api/apidom-parser-adapter-arazzo-json-1 / -yaml-1) pull in
// ApiDOM's core, its tree-sitter parsers and their WASM, many megabytes for
// a check the official schema makes with the ajv Stepgate already ships.
// The schema is the specification group's own statement of the structure.
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { StepfileInvalid, type Issue } from "../errors.js";
import { isObject, type JsonObject } from "../format/json-pointer.js";
import { parseSource, pathString, type ParsedSource, type PathSegment } from "../format/source.js";
import { createAjv } from "../jsonschema/ajv.js";
import { arazzoSchema } from "../loader/rules/arazzo-schema.js";
import { arazzoUnvalidated } from "../loader/rules/arazzo-unvalidated.js";
import { syntax } from "../loader/rules/syntax.js";
import { corrected10 } from "./schema-corrections.js";
import schema10 from "./schemas/arazzo-1-0.js";
import schema11 from "./schemas/arazzo-1-1.js";
import schema12 from "./schemas/arazzo-1-2.js";

export interface ArazzoDocument {
  data: JsonObject;
  /** The `arazzo` version string. */
  version: string;
  /** 1-based position of a path, for messages. */
  locate(path: readonly PathSegment[]): { line: number; column: number } | undefined;
  /** Schema findings that do not stop conversion (a version with no published schema, an interaction step the schema predates). */
  notes: Issue[];
}

/** Whether a parsed text is an Arazzo document: an object with a top-level `arazzo` field. */
export function isArazzoData(data: unknown): boolean {
  return isObject(data) && "arazzo" in data && !("stepgate" in data);
}

const SCHEMAS: Record<string, object> = { "1.0": corrected10(schema10), "1.1": schema11, "1.2": schema12 };
const validators = new Map<string, ValidateFunction>();

function validatorFor(minor: string): ValidateFunction | undefined {
  const schema = SCHEMAS[minor];
  if (!schema) return undefined;
  let validate = validators.get(minor);
  // The specification's schema is fixed and its patterns mean the same under RE2 and JavaScript.
  if (!validate) validators.set(minor, (validate = createAjv({ nativePatterns: true }).compile(schema)));
  return validate;
}

export function readArazzo(text: string, source: string): ArazzoDocument {
  const parsed = parseSource(text);
  if ("issues" in parsed) throw new StepfileInvalid(parsed.issues.map((i) => ({ ...i, rule: syntax.id })), source);
  if (!isArazzoData(parsed.data)) throw new StepfileInvalid([{ path: "", message: "this is not an Arazzo document: it has no top-level arazzo field" }], source);
  const data = parsed.data as JsonObject;
  const version = String(data.arazzo);
  const minor = /^(\d+\.\d+)\./.exec(version)?.[1] ?? "";
  const validate = validatorFor(minor);
  const notes: Issue[] = [];
  if (!validate) {
    notes.push({ path: "arazzo", message: `Arazzo ${version} has no published JSON Schema here (1.0, 1.1 and 1.2 do); the document was not validated against one`, rule: arazzoUnvalidated.id });
  } else if (!validate(data)) {
    const { errors, skipped } = schemaIssues(validate.errors ?? [], data, parsed);
    if (errors.length > 0) throw new StepfileInvalid(errors.map((i) => ({ ...i, rule: arazzoSchema.id })), source);
    if (skipped) notes.push({ path: "workflows", message: "steps with the Arazzo 1.2 draft's actor-in-the-loop fields (interaction, onTimeout, onCancel: OAI/Arazzo-Specification pull request #568) were not validated: the published schemas predate them", rule: arazzoUnvalidated.id });
  }
  return { data, version, locate: (p) => parsed.locate(p), notes };
}

/**
 * The schema's errors as issues, one per place (oneOf branches report many
 * errors for one mistake; the deepest says the most). Errors inside a step
 * with the 1.2 draft's fields are set aside: the published schemas do not know them yet.
 */
function schemaIssues(errors: readonly ErrorObject[], data: JsonObject, parsed: ParsedSource): { errors: Issue[]; skipped: boolean } {
  const byPlace = new Map<string, ErrorObject>();
  let skipped = false;
  for (const error of errors) {
    const segments = pointerSegments(error.instancePath);
    if (insideInteraction(data, segments)) {
      skipped = true;
      continue;
    }
    const key = pathString(segments);
    const known = byPlace.get(key);
    if (!known || error.keyword === "required" || error.keyword === "additionalProperties" || error.keyword === "pattern") byPlace.set(key, error);
  }
  // A place whose error is only that a child failed, or one alternative's complaint (`type` is not a
  // string, when it is an object with a wrong version), says less than the child's own error.
  const keys = [...byPlace.keys()];
  const issues: Issue[] = [];
  for (const [key, error] of byPlace) {
    if (keys.some((k) => k !== key && k.startsWith(key)) && (COMBINATORS.includes(error.keyword) || /\/(anyOf|oneOf)\/\d+\//.test(error.schemaPath))) continue;
    const segments = pointerSegments(error.instancePath);
    const { additionalProperty, unevaluatedProperty } = error.params as { additionalProperty?: string; unevaluatedProperty?: string };
    const extraField = additionalProperty ?? unevaluatedProperty;
    const extra = extraField !== undefined ? ` (${extraField})` : simpleWithoutContext(error, data, segments) ? "; simple is the default type, so drop type: simple, or give the context it applies to" : "";
    const at = parsed.locate(segments);
    issues.push({ path: key, message: `${error.message ?? "is invalid"}${extra} (Arazzo JSON Schema)`, ...(at ? { line: at.line, column: at.column } : {}) });
  }
  return { errors: issues.slice(0, 20), skipped };
}

const COMBINATORS = ["oneOf", "anyOf", "if", "then", "else", "$ref"];

/** A Criterion Object with `type: simple` and no context (the Criterion Object asks for a context whenever type is given), as Jentic's cookbook writes them. */
function simpleWithoutContext(error: ErrorObject, data: JsonObject, segments: PathSegment[]): boolean {
  if (error.keyword !== "dependentRequired" || (error.params as { missingProperty?: string }).missingProperty !== "context") return false;
  let node: unknown = data;
  for (const s of segments) node = isObject(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[s] : undefined;
  return isObject(node) && node.type === "simple";
}

function pointerSegments(pointer: string): PathSegment[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"))
    .map((t) => (/^(0|[1-9]\d*)$/.test(t) ? Number(t) : t));
}

/** Step fields of the 1.2 draft's actor in the loop (pull request #568), which no published schema knows yet. */
const DRAFT_STEP_FIELDS = ["interaction", "onTimeout", "onCancel"];

function insideInteraction(data: JsonObject, segments: PathSegment[]): boolean {
  if (segments[0] !== "workflows" || segments[2] !== "steps" || typeof segments[3] !== "number") return false;
  const workflows = data.workflows;
  const workflow = Array.isArray(workflows) ? workflows[segments[1] as number] : undefined;
  const steps = isObject(workflow) && Array.isArray(workflow.steps) ? workflow.steps : [];
  const step = steps[segments[3]];
  return isObject(step) && DRAFT_STEP_FIELDS.some((f) => f in step);
}
