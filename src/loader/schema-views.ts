// What the load warnings know of the value a `var` path walks into, one
// segment at a time. Three kinds of knowledge, judged differently:
// - the author's own schemas (inputs, produces, $defs): a schema that lists
//   its properties is taken as the whole shape, since the author wrote it to
//   say what the data holds;
// - an API's response schemas: what the schema rules out (a closed object, a
//   type that has no such member) is certain; a name an open object does not
//   list among its `properties` is only undocumented (UNDECLARED), since APIs
//   may return more than they document, and is reported more softly. An
//   object that expects other names (`additionalProperties` or
//   `patternProperties` given, a map with no `properties`), an undecidable
//   union or a `$ref` that does not resolve is never judged;
// - records Stepgate builds itself (`calls` entries, join pairs, reduce's
//   item), whose members are known exactly.
import { isObject, resolvePointer } from "../format/json-pointer.js";
import type { LocatedSchema } from "./response-schemas.js";

type Schema = Record<string, unknown>;

/** A member an open object of an API's response schema does not list: likely a mistake, though the API may still send it. */
export const UNDECLARED: unique symbol = Symbol("undeclared");
export type Undeclared = typeof UNDECLARED;

/** What is known of one member: its view, null (cannot exist), UNDECLARED (not documented), or undefined (nothing known). */
export type Member = SchemaView | null | undefined | Undeclared;

/** The member's view when something is known of its contents. */
export function viewOf(member: Member): SchemaView | undefined {
  return member === null || member === UNDECLARED ? undefined : member;
}

export interface SchemaView {
  /** The view under one segment; null when that member cannot exist, UNDECLARED when an open object does not document it, undefined when nothing is known of it. */
  next(segment: string): Member;
  /** The names declared at this level, for "did you mean". */
  names(): string[];
  /** The view of the items when this value is iterated; undefined when unknown. */
  items(): SchemaView | undefined;
  /** Where this knowledge comes from, for messages ("the inputs schema"). */
  readonly what: string;
  /** True when the value is known to be a list, which has no named members. */
  isList?(): boolean;
  /** The JSON types the value is declared with; undefined when that is not known. */
  types?(): string[] | undefined;
  /** True when the object is closed (`additionalProperties: false`): a name it does not list can never be there. */
  closed?(): boolean;
}

/** An author's schema, with `#/$defs/` references. */
export class AuthorView implements SchemaView {
  constructor(
    private readonly schema: Schema,
    private readonly defs: Record<string, Schema>,
    readonly what: string,
  ) {}

  next(segment: string): SchemaView | null | undefined {
    const resolved = this.resolve(this.schema);
    if (!resolved) return undefined;
    if (/^\d+$/.test(segment) && isObject(resolved.items)) return this.wrap(resolved.items);
    const properties = resolved.properties;
    if (!isObject(properties)) return undefined;
    if (Object.hasOwn(properties, segment)) return isObject(properties[segment]) ? this.wrap(properties[segment]) : undefined;
    // Other properties are declared to exist: not this walker's to judge.
    if (resolved.patternProperties !== undefined || isObject(resolved.additionalProperties) || resolved.additionalProperties === true) return undefined;
    if (["allOf", "anyOf", "oneOf", "if", "$ref", "dependentSchemas", "unevaluatedProperties"].some((k) => k in resolved)) return undefined;
    return null;
  }

  names(): string[] {
    const properties = this.resolve(this.schema)?.properties;
    return isObject(properties) ? Object.keys(properties) : [];
  }

  items(): SchemaView | undefined {
    const items = this.resolve(this.schema)?.items;
    return isObject(items) ? this.wrap(items) : undefined;
  }

  types(): string[] | undefined {
    return declaredTypes(this.resolve(this.schema));
  }

  closed(): boolean {
    return this.resolve(this.schema)?.additionalProperties === false;
  }

  private wrap(schema: Schema): AuthorView {
    return new AuthorView(schema, this.defs, this.what);
  }

  /** Follows a local #/$defs/ reference; undefined for anything it cannot read. */
  private resolve(schema: Schema): Schema | undefined {
    const ref = schema.$ref;
    if (typeof ref !== "string") return schema;
    const m = /^#\/\$defs\/([^/]+)$/.exec(ref);
    const target = m ? this.defs[m[1]!] : undefined;
    return isObject(target) && Object.keys(schema).length === 1 ? target : undefined;
  }
}

/** A record whose members Stepgate defines; a member view may be unknown. */
export class RecordView implements SchemaView {
  constructor(
    private readonly fields: Record<string, SchemaView | undefined>,
    readonly what: string,
  ) {}

  next(segment: string): SchemaView | null | undefined {
    return Object.hasOwn(this.fields, segment) ? this.fields[segment] : null;
  }

  names(): string[] {
    return Object.keys(this.fields);
  }

  items(): undefined {
    return undefined;
  }

  types(): string[] {
    return ["object"];
  }
}

/** A list whose every item is `item` (as `calls` is a list of call records). */
export class ListView implements SchemaView {
  constructor(
    private readonly item: SchemaView | undefined,
    readonly what: string,
  ) {}

  next(segment: string): SchemaView | null | undefined {
    return /^\d+$/.test(segment) ? this.item : undefined;
  }

  names(): string[] {
    return [];
  }

  items(): SchemaView | undefined {
    return this.item;
  }

  types(): string[] {
    return ["array"];
  }
}

/**
 * A mechanical step's output: what its `output` template computes, which
 * is exact where the template spells a member out (a plain object in the
 * template has exactly its keys), and what `produces` declares beneath
 * members the template computes by an expression. A member the template
 * computes is never ruled out by `produces` leaving it unlisted.
 */
export class MergedView implements SchemaView {
  constructor(
    private readonly computed: SchemaView,
    private readonly declared: SchemaView | undefined,
  ) {}

  get what(): string {
    return this.computed.what;
  }

  next(segment: string): Member {
    const computed = this.computed.next(segment);
    if (computed === null) return null;
    const declared = this.declared?.next(segment);
    const known = viewOf(declared);
    if (computed === UNDECLARED) return known ?? UNDECLARED;
    if (computed) return known ? new MergedView(computed, known) : computed;
    // The template holds the member but computes it by an expression whose value is not known here.
    return this.computed.names().includes(segment) ? known : declared;
  }

  names(): string[] {
    const names = this.computed.names();
    return names.length > 0 ? names : (this.declared?.names() ?? []);
  }

  items(): SchemaView | undefined {
    const computed = this.computed.items();
    const declared = this.declared?.items();
    return computed ? (declared ? new MergedView(computed, declared) : computed) : declared;
  }

  isList(): boolean {
    return this.computed.isList?.() ?? false;
  }

  types(): string[] | undefined {
    return this.computed.types?.() ?? this.declared?.types?.();
  }
}

/** Deeper than this, a chain of `$ref`s and compositions is not followed (it may be a cycle). */
const MAX_DEPTH = 32;

/**
 * The value matches one of `candidates` (response schemas of one or more
 * statuses or operations). A segment is ruled out only when every candidate
 * rules it out.
 */
export class ResponseView implements SchemaView {
  constructor(
    private readonly candidates: readonly LocatedSchema[],
    readonly what: string,
  ) {}

  next(segment: string): Member {
    const under = union(this.candidates.map((c) => step(c, segment, 0)));
    return Array.isArray(under) ? new ResponseView(under, this.what) : under;
  }

  names(): string[] {
    const names = new Set<string>();
    for (const c of this.candidates) collectNames(c, names, 0);
    return [...names];
  }

  items(): SchemaView | undefined {
    return viewOf(this.next("0"));
  }

  types(): string[] | undefined {
    const all = new Set<string>();
    for (const c of this.candidates) {
      const types = typesOf(c);
      if (!types) return undefined;
      for (const t of types) all.add(t);
    }
    return [...all];
  }

  isList(): boolean {
    return this.candidates.every((c) => {
      const types = typesOf(c);
      return types?.length === 1 && types[0] === "array";
    });
  }

  /**
   * What `results` gives from values matching these schemas: an array's
   * items, any other value itself. Undefined when a candidate may be either.
   */
  flattened(): ResponseView | undefined {
    const out: LocatedSchema[] = [];
    for (const c of this.candidates) {
      const types = typesOf(c);
      if (types === undefined) return undefined;
      if (types.length === 1 && types[0] === "array") {
        const items = step(c, "0", 0);
        if (!Array.isArray(items)) return undefined;
        out.push(...items);
      } else if (!types.includes("array")) out.push(c);
      else return undefined;
    }
    return new ResponseView(out, this.what);
  }
}

/** What one schema says of a member: the schemas it may match, null, UNDECLARED or undefined (see Member). */
type Answer = LocatedSchema[] | null | undefined | Undeclared;

/** Union of the candidates' answers: known if any declares it, null only if all rule it out, UNDECLARED if none documents it, undefined if any cannot tell. */
function union(answers: readonly Answer[]): Answer {
  if (answers.length === 0 || answers.includes(undefined)) return undefined;
  const lists = answers.filter((a): a is LocatedSchema[] => Array.isArray(a));
  if (lists.length > 0) return lists.flat();
  return answers.includes(UNDECLARED) ? UNDECLARED : null;
}

/** A schema with its `$ref` followed, or undefined when it cannot be (external, dangling, or with siblings this walk does not combine). */
export function resolved(c: LocatedSchema, depth = 0): Schema | undefined {
  let schema = c.schema;
  for (let hops = 0; isObject(schema) && typeof schema.$ref === "string"; hops++) {
    if (hops + depth > MAX_DEPTH || Object.keys(schema).length !== 1) return undefined;
    schema = resolvePointer(c.root, schema.$ref);
  }
  return isObject(schema) ? schema : undefined;
}

/** The JSON types a schema admits by its own `type`; undefined when it does not say (or cannot be read). */
function typesOf(c: LocatedSchema): string[] | undefined {
  const schema = resolved(c, 0);
  if (!schema || ["allOf", "anyOf", "oneOf"].some((k) => k in schema)) return undefined;
  return declaredTypes(schema);
}

/** A schema's own `type` as a list (with OpenAPI 3.0's `nullable`); undefined when it has none. */
function declaredTypes(schema: Schema | undefined): string[] | undefined {
  if (!schema) return undefined;
  const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) && schema.type.every((t) => typeof t === "string") ? (schema.type as string[]) : undefined;
  return types && schema.nullable === true ? [...types, "null"] : types;
}

/**
 * The schemas the member `segment` of a value matching `c` may match: null
 * when no such value can have that member, undefined when it cannot tell.
 */
function step(c: LocatedSchema, segment: string, depth: number): Answer {
  if (depth > MAX_DEPTH) return undefined;
  const schema = resolved(c, depth);
  if (!schema) return undefined;
  const at = (s: unknown): LocatedSchema => ({ schema: s, root: c.root });
  // Every allOf branch holds at once: the first that knows the member is a
  // sound (if loose) answer, and any that rules it out rules it out.
  const composed = COMPOSITIONS.some((k) => Array.isArray(schema[k]));
  const parts: Answer[] = composed && saysNothingOfNames(schema) ? [] : [own(schema, segment, at)];
  if (Array.isArray(schema.allOf)) parts.push(...schema.allOf.map((b) => step(at(b), segment, depth + 1)));
  for (const key of ["anyOf", "oneOf"]) {
    const branches = schema[key];
    if (Array.isArray(branches)) parts.push(union(branches.map((b) => step(at(b), segment, depth + 1))));
  }
  if (parts.includes(null) || parts.includes(UNDECLARED)) {
    // A name some part of the schema declares was meant to exist: a document
    // that closes one allOf branch against another's members is not trusted.
    const declared = new Set<string>();
    collectNames(c, declared, depth);
    if (declared.has(segment)) return parts.find(Array.isArray);
    if (parts.includes(null)) return null;
  }
  const known = parts.find(Array.isArray);
  if (known) return known;
  // Undocumented only when every part documents its names: a part that says
  // nothing readable (an unresolved $ref, a map) may hold this one.
  return parts.length > 0 && parts.every((p) => p === UNDECLARED) ? UNDECLARED : undefined;
}

const COMPOSITIONS = ["allOf", "anyOf", "oneOf"] as const;

/** An object schema that only composes others (`type: object, allOf: [...]`): its own keywords add no names. */
function saysNothingOfNames(schema: Schema): boolean {
  if (["properties", "additionalProperties", "patternProperties", "unevaluatedProperties"].some((k) => k in schema)) return false;
  return schema.type === undefined || schema.type === "object";
}

/** What the schema's own keywords (type, properties, additionalProperties, items) say of one member. */
function own(schema: Schema, segment: string, at: (s: unknown) => LocatedSchema): Answer {
  const index = /^\d+$/.test(segment);
  const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? (schema.type as unknown[]).map(String) : undefined;
  // Without a type the value may be a string or an array, which have indexes and a length.
  if (types === undefined) return index || segment === "length" ? undefined : objectMember(schema, segment, at);
  const answers = types.map((type): Answer => {
    if (type === "object") return objectMember(schema, segment, at);
    if (type === "array") {
      if (segment === "length") return undefined;
      if (!index) return null;
      if (schema.prefixItems !== undefined || !("items" in schema)) return undefined;
      return schema.items === false ? null : [at(schema.items)];
    }
    if (type === "string") return index || segment === "length" ? undefined : null;
    return null; // numbers, booleans and null have no members
  });
  return union(answers);
}

/**
 * One member of an object: declared in `properties`; ruled out by a closed
 * object; UNDECLARED on an open object that lists its properties (APIs
 * document what they send, and rarely close their objects); unknown where
 * the schema expects other names (`patternProperties`, `additionalProperties`
 * given as a schema or true, `unevaluatedProperties`, a map with no
 * `properties`).
 */
function objectMember(schema: Schema, segment: string, at: (s: unknown) => LocatedSchema): Answer {
  const properties = isObject(schema.properties) ? schema.properties : {};
  if (Object.hasOwn(properties, segment)) return [at(properties[segment])];
  if (schema.patternProperties !== undefined || schema.unevaluatedProperties !== undefined) return undefined;
  // A closed object beside allOf/anyOf/oneOf is most often a document that
  // meant the branches' members too: not ruled out here.
  if (schema.additionalProperties === false) return COMPOSITIONS.some((k) => k in schema) ? undefined : null;
  if (isObject(schema.additionalProperties)) return [at(schema.additionalProperties)];
  if (schema.additionalProperties !== undefined || Object.keys(properties).length === 0) return undefined;
  return UNDECLARED;
}

function collectNames(c: LocatedSchema, names: Set<string>, depth: number): void {
  const schema = depth > MAX_DEPTH ? undefined : resolved(c, depth);
  if (!schema) return;
  if (isObject(schema.properties)) for (const name of Object.keys(schema.properties)) names.add(name);
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches) collectNames({ schema: b, root: c.root }, names, depth + 1);
  }
}
