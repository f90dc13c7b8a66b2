// Checks a stepfile's inline OpenAPI operations, and what the stepfile sends
// and reads through them, against the provider's published description:
// - each exposed operation exists there with the same method, path and name;
// - each declared parameter exists with the same location, is required when
//   the description requires it, and its schema (type, enum, default,
//   maximum) does not contradict the published one; every required one is
//   declared;
// - each declared request body field and response field exists there with a
//   compatible type, a response body under the same media type (application/json,
//   or a +json type such as the National Weather Service's application/geo+json);
// - required-ness, at every depth: an answer's field the entry requires is
//   one the description requires (promises); a request body, body field or
//   parameter the description requires is required by the entry; and one the
//   entry requires where the description does not is a finding too, kept
//   only as a waiver that says why the stricter choice is meant;
// - every literal argument a mechanical call sends fits the published schema
//   (and each literal an `if` argument can give),
//   including a maximum that a description states only in words ("(max 100)",
//   as GitHub does for per_page);
// - every response path a mechanical step's templates, `results` and a
//   `select` read resolves in the published response schema.
// Hand-written: no library compares two OpenAPI descriptions field by field
// against what a stepfile's expressions read.
import { isObject, mediaKind, resolvePointer, type JsonObject } from "../../../src/format/json-pointer.js";
import { HTTP_METHODS } from "../../../src/format/http-methods.js";
import type { StepfileDocument, ToolDef } from "../../../src/format/types.js";
import type { PublishedDescription, PublishedOperation, Schema } from "./published.js";

export interface Provider {
  /** The `openapi.server` an entry's tool names. */
  server: string;
  /** What the published description is, for messages. */
  source: string;
  description: PublishedDescription;
  /** Headers the provider documents for every request, outside the description's parameters, with where. */
  commonHeaders: Record<string, string>;
  /**
   * The path part of the description's server URL that entries write at the
   * start of their paths, because a setting may not stand in a path
   * (BigCommerce's /stores/{store_hash}/v3); its {variables} are the
   * server's, declared by the entry as path parameters.
   */
  pathPrefix?: string | undefined;
  /** Published operation ids a stepfile cannot use as names (HubSpot's hold `/` and `{}`), with the name entries give them. */
  operationNames?: Record<string, string> | undefined;
  /**
   * "proto": the description's enums are protocol-buffer names (BY_PROPERTY,
   * GOOGLE_NEWS), as Google's discovery documents give them, where the JSON
   * API takes the same value in its documented spelling (byProperty,
   * googleNews): enum values then compare without case and underscores.
   */
  enumNames?: "proto" | undefined;
  /**
   * Why the description gives its responses no body schema (the Federal
   * Register's says only "Success"), when it does not: the responses an
   * entry declares and the paths it reads are then not compared, and a test
   * holds the entry to its parameters and literal arguments instead.
   */
  responsesUnpublished?: string | undefined;
  /**
   * The path part a description writes before each of its paths where the
   * public server serves them at its own root: the Page Content Service
   * describes /{domain}/v1/page/summary/{title}, which Wikimedia serves as
   * https://{domain}/api/rest_v1/page/summary/{title}. An entry's path is
   * looked up under it, and its {variables} name the server's host, which
   * no entry declares as a parameter.
   */
  publishedPathPrefix?: string | undefined;
}

/** The {variables} of a path. */
const variablesOf = (path: string | undefined): string[] => [...(path ?? "").matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/** The server variables a provider's path prefix holds ("store_hash"). */
function prefixVariables(provider: Provider): string[] {
  return variablesOf(provider.pathPrefix);
}

export interface ContractReport {
  findings: string[];
  /** What was compared, so a test can tell a clean report from an empty one. */
  checked: { operations: number; parameters: number; fields: number; literals: number; paths: number };
  /**
   * What the entry declares for this provider, so a test can tell that every
   * one of them was compared: `fields` counts the properties of its request
   * bodies' and responses' schemas, nested ones included.
   */
  declared: { operations: number; parameters: number; fields: number };
}

interface DeclaredOperation {
  tool: string;
  method: string;
  path: string;
  op: JsonObject;
  doc: JsonObject;
}

export function checkEntry(stepfile: StepfileDocument, provider: Provider): ContractReport {
  const report: ContractReport = { findings: [], checked: { operations: 0, parameters: 0, fields: 0, literals: 0, paths: 0 }, declared: { operations: 0, parameters: 0, fields: 0 } };
  const declared = new Map<string, DeclaredOperation>();
  for (const [name, tool] of Object.entries(stepfile.tools ?? {})) {
    if (tool.openapi?.server !== provider.server || !isObject(tool.openapi.document)) continue;
    for (const op of declaredOperations(name, tool)) declared.set(String(op.op.operationId), op);
  }
  report.declared.operations = declared.size;
  for (const d of declared.values()) {
    report.declared.parameters += Array.isArray(d.op.parameters) ? d.op.parameters.length : 0;
    report.declared.fields += declaredFields(d);
  }
  const published = new Map<string, PublishedOperation>();
  const bodyTypes = new Map<string, string>();
  for (const [id, d] of declared) {
    bodyTypes.set(id, answeredType(d));
    const where = `${id} (${d.method.toUpperCase()} ${d.path})`;
    const prefix = provider.pathPrefix;
    if (prefix && !d.path.startsWith(prefix)) report.findings.push(`${where}: ${provider.source}'s server has the path ${prefix}, which this path does not start with`);
    const pub = provider.description.operation(d.method, (provider.publishedPathPrefix ?? "") + (prefix && d.path.startsWith(prefix) ? d.path.slice(prefix.length) : d.path));
    if (!pub) {
      report.findings.push(`${where}: ${provider.source} has no ${d.method.toUpperCase()} ${d.path}`);
      continue;
    }
    report.checked.operations++;
    published.set(id, pub);
    const name = provider.operationNames?.[pub.operationId] ?? pub.operationId.replaceAll("/", "-");
    // A description that names no operation (Crossref's) has no name to hold the entry to.
    if (pub.operationId !== "" && name !== id) report.findings.push(`${where}: ${provider.source} names it ${pub.operationId}`);
    checkParameters(where, d, pub, provider, report);
    checkBody(where, d, pub, provider, report);
    checkResponses(where, d, pub, provider, report);
  }
  checkCalls(stepfile, published, bodyTypes, provider, report);
  return report;
}

/** The JSON media types (application/json, +json) a declared response lists, lower-cased without parameters, with their media objects. */
function jsonMedia(doc: JsonObject, response: unknown): Array<[string, JsonObject]> {
  const resolved = local(doc, response);
  const content = isObject(resolved.content) ? resolved.content : {};
  return Object.entries(content).flatMap(([type, media]) => (mediaKind(type) === "json" && isObject(media) ? [[type.split(";")[0]!.trim().toLowerCase(), media] as [string, JsonObject]] : []));
}

/**
 * The media type a successful call is answered in: the first JSON type its
 * success responses declare, as the Accept header Stepgate sends puts them
 * first (src/tools/openapi/accept.ts); application/json when none is declared.
 */
function answeredType(d: DeclaredOperation): string {
  const responses = isObject(d.op.responses) ? d.op.responses : {};
  for (const [status, response] of Object.entries(responses)) {
    if (!/^2(\d\d|XX)$/i.test(status)) continue;
    const first = jsonMedia(d.doc, response)[0];
    if (first) return first[0];
  }
  return "application/json";
}

function declaredOperations(tool: string, def: ToolDef): DeclaredOperation[] {
  const doc = def.openapi!.document as JsonObject;
  const exposed = new Set((def.exposes ?? []).map((e) => (typeof e === "string" ? e : e.name)));
  const found: DeclaredOperation[] = [];
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (isObject(op) && exposed.has(String(op.operationId))) found.push({ tool, method, path, op, doc });
    }
  }
  return found;
}

/** The properties of an operation's declared JSON request body and response schemas, nested ones included. */
function declaredFields(d: DeclaredOperation): number {
  const count = (schema: Schema, depth: number): number => {
    if (depth > 20) return 0;
    const props = isObject(schema.properties) ? Object.values(schema.properties) : [];
    const nested = props.reduce<number>((n, p) => n + count(local(d.doc, p), depth + 1), props.length);
    return nested + (schema.items !== undefined ? count(local(d.doc, schema.items), depth + 1) : 0);
  };
  // Every JSON body (application/json or a +json type such as NWS's geo+json).
  const bodies = (holder: unknown): Schema[] => jsonMedia(d.doc, holder).flatMap(([, media]) => (media.schema !== undefined ? [local(d.doc, media.schema)] : []));
  const responses = isObject(d.op.responses) ? Object.values(d.op.responses) : [];
  return [d.op.requestBody, ...responses].reduce<number>((n, holder) => bodies(holder).reduce<number>((m, schema) => m + count(schema, 0), n), 0);
}

/** A declared schema with local `$ref`s followed (inline documents use them for shared shapes). */
function local(doc: JsonObject, value: unknown): Schema {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string" && hops < 50; hops++) current = resolvePointer(doc, current.$ref);
  return isObject(current) ? current : {};
}

function checkParameters(where: string, d: DeclaredOperation, pub: PublishedOperation, provider: Provider, report: ContractReport): void {
  const params = (Array.isArray(d.op.parameters) ? d.op.parameters : []).map((p) => local(d.doc, p));
  for (const p of params) {
    const name = String(p.name);
    report.checked.parameters++;
    if (p.in === "path" && prefixVariables(provider).includes(name)) {
      if (p.required !== true) report.findings.push(`${where}: parameter ${name} is a path parameter and must be required`);
      continue;
    }
    // A header the provider documents for every request (Square-Version, X-GitHub-Api-Version) is checked by name against that list.
    if (p.in === "header" && Object.keys(provider.commonHeaders).some((h) => h.toLowerCase() === name.toLowerCase())) continue;
    const match = pub.parameters.find((q) => q.name === name);
    if (!match) {
      report.findings.push(`${where}: parameter ${name} is not in ${provider.source}`);
      continue;
    }
    if (match.in !== p.in) report.findings.push(`${where}: parameter ${name} is in ${String(p.in)} here, in ${match.in} in ${provider.source}`);
    if (match.required && p.required !== true) report.findings.push(`${where}: parameter ${name} is required in ${provider.source}`);
    // Stricter than the provider: not wrong, but kept only as a waiver that says why.
    if (!match.required && p.required === true) report.findings.push(`${where}: parameter ${name} is required here and optional in ${provider.source}`);
    compareSchema(`${where}: parameter ${name}`, local(d.doc, p.schema), match.schema, provider, report, d.doc, "request", match.description);
  }
  for (const q of pub.parameters) {
    if (q.required && !params.some((p) => p.name === q.name) && !variablesOf(provider.publishedPathPrefix).includes(q.name)) report.findings.push(`${where}: ${provider.source} requires parameter ${q.name} (${q.in}), which is not declared`);
  }
}

function checkBody(where: string, d: DeclaredOperation, pub: PublishedOperation, provider: Provider, report: ContractReport): void {
  const body = local(d.doc, d.op.requestBody);
  const content = isObject(body.content) ? (body.content as JsonObject)["application/json"] : undefined;
  if (!isObject(content)) return;
  if (!pub.body) {
    report.findings.push(`${where}: ${provider.source} takes no JSON request body`);
    return;
  }
  if (pub.bodyRequired && body.required !== true) report.findings.push(`${where}: ${provider.source} requires a request body, which is optional here`);
  // A body whose published schema requires a field is required in effect, though the description leaves the body itself optional.
  const inEffect = pub.bodyRequired || requiredOf(pub.body).length > 0 || alternatives(pub.body, provider).every((o) => requiredOf(o).length > 0);
  if (!inEffect && body.required === true) report.findings.push(`${where}: request body is required here and optional in ${provider.source}`);
  const declared = local(d.doc, content.schema);
  compareSchema(`${where}: body`, declared, pub.body, provider, report, d.doc, "request", undefined, true);
  const properties = isObject(declared.properties) ? Object.keys(declared.properties) : [];
  // A required name that only some alternatives (oneOf/anyOf) declare is the
  // choice between them (ShipEngine requires shipment_id or shipment), which
  // compareSchema judges; the others must be declared.
  const options = alternatives(pub.body, provider).filter((o) => o !== pub.body);
  const chosen = (name: string): boolean => options.some((o) => isObject(o.properties) && name in o.properties) && !options.every((o) => isObject(o.properties) && name in o.properties);
  for (const name of Array.isArray(pub.body.required) ? pub.body.required : []) {
    if (!properties.includes(String(name)) && !chosen(String(name))) report.findings.push(`${where}: body field ${String(name)} is required in ${provider.source}, and not declared`);
  }
}

function checkResponses(where: string, d: DeclaredOperation, pub: PublishedOperation, provider: Provider, report: ContractReport): void {
  for (const [status, response] of Object.entries(isObject(d.op.responses) ? d.op.responses : {})) {
    if (!pub.responses.has(status) && !pub.responses.has("default")) {
      report.findings.push(`${where}: ${provider.source} declares no ${status} response`);
      continue;
    }
    const optional = optFieldsEnum(pub, provider);
    for (const [type, media] of jsonMedia(d.doc, response)) {
      if (media.schema === undefined) continue;
      const listed = pub.responses.get(status)?.get(type) ?? pub.responses.get("default")?.get(type);
      const published = listed && optional && /^2\d\d$/.test(status) ? withFields(listed, optional, provider) : listed;
      if (published) {
        compareSchema(`${where}: ${status} response`, local(d.doc, media.schema), published, provider, report, d.doc, "response");
        continue;
      }
      if (provider.responsesUnpublished !== undefined) continue;
      const has = [...(pub.responses.get(status) ?? pub.responses.get("default") ?? new Map<string, Schema>()).keys()];
      report.findings.push(`${where}: ${provider.source} declares no ${type} body for ${status}${has.length > 0 ? ` (it has ${has.join(", ")})` : ""}`);
    }
  }
}

/**
 * Asana's optional fields: an operation with an `opt_fields` query parameter
 * returns, for each record under `data`, the fields the request names there
 * beyond the compact record its response schema declares (getTasksForProject
 * declares TaskCompact, and `opt_fields=due_on` adds `due_on`). The
 * parameter's published enum lists the fields that can be asked for.
 */
function optFieldsEnum(pub: PublishedOperation, provider: Provider): string[] | undefined {
  const param = pub.parameters.find((p) => p.name === "opt_fields" && p.in === "query");
  const items = param?.schema.items !== undefined ? provider.description.schema(param.schema.items) : undefined;
  return Array.isArray(items?.enum) ? items.enum.map(String) : undefined;
}

/** A response schema whose `data` record(s) also hold these (dotted) optional fields, each open where the description says nothing more. */
function withFields(body: Schema, fields: string[], provider: Provider): Schema {
  const properties = isObject(body.properties) ? body.properties : {};
  if (properties.data === undefined) return body;
  const data = provider.description.schema(properties.data);
  const list = data.items !== undefined;
  const record = addFields(list ? provider.description.schema(data.items) : data, fields.map((f) => f.split(".")), provider);
  return { ...body, properties: { ...properties, data: list ? { ...data, items: record } : record } };
}

/** A field the description lists only by name: anything may be read under it. */
const OPEN: Schema = { additionalProperties: {} };

function addFields(schema: Schema, paths: string[][], provider: Provider): Schema {
  const properties: JsonObject = { ...(isObject(schema.properties) ? schema.properties : {}) };
  for (const head of new Set(paths.map((p) => p[0]!))) {
    const rest = paths.filter((p) => p[0] === head && p.length > 1).map((p) => p.slice(1));
    // A field asked for whole ("assignee" as well as "assignee.name") is open where the description does not declare it.
    const whole = paths.some((p) => p[0] === head && p.length === 1);
    const existing = properties[head] !== undefined ? provider.description.schema(properties[head]) : OPEN;
    if (rest.length === 0 || (whole && properties[head] === undefined)) properties[head] = existing;
    else if (existing.items !== undefined) properties[head] = { ...existing, items: addFields(provider.description.schema(existing.items), rest, provider) };
    else properties[head] = addFields(existing, rest, provider);
  }
  return { ...schema, properties };
}

/** Types a schema admits, with `nullable` as "null" and no type as any. */
function types(schema: Schema): Set<string> | undefined {
  const t = schema.type;
  if (t === undefined) return undefined;
  const set = new Set(Array.isArray(t) ? t.map(String) : [String(t)]);
  if (schema.nullable === true) set.add("null");
  return set;
}

/**
 * The alternatives a published schema offers (anyOf/oneOf), each resolved.
 * Properties the schema declares beside its oneOf (ShipEngine's rate request:
 * `rate_options` from an allOf, `shipment_id` or `shipment` from the oneOf)
 * hold in every alternative, so each alternative gets them too.
 */
function alternatives(schema: Schema, provider: Provider): Schema[] {
  const list = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (!list) return [schema];
  const shared = isObject(schema.properties) ? schema.properties : undefined;
  const required = requiredOf(schema);
  return list.map((s) => {
    const option = provider.description.schema(s);
    if (!shared) return option;
    // What the shared properties require holds in every alternative too.
    const both = [...new Set([...required, ...requiredOf(option)])];
    return { ...option, properties: { ...shared, ...(isObject(option.properties) ? option.properties : {}) }, ...(both.length > 0 ? { required: both } : {}) };
  });
}

/** The properties of a published schema and of each of its alternatives. */
function anyProperty(schema: Schema, name: string, provider: Provider): unknown {
  for (const option of [schema, ...alternatives(schema, provider)]) {
    const found = isObject(option.properties) ? (option.properties as JsonObject)[name] : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

/** GitHub states some maximums only in words: "The number of results per page (max 100)." */
export function statedMaximum(schema: Schema, description = ""): number | undefined {
  if (typeof schema.maximum === "number") return schema.maximum;
  const words = /\(max(?:imum)? (\d+)\)/i.exec(`${description} ${typeof schema.description === "string" ? schema.description : ""}`);
  return words ? Number(words[1]) : undefined;
}

function compareSchema(where: string, declared: Schema, published: Schema, provider: Provider, report: ContractReport, doc: JsonObject, side: Side, description?: string, top = false): void {
  const options = alternatives(published, provider);
  // Against anyOf/oneOf, the declared shape must fit one of the alternatives.
  // The closest alternative's findings and counts are kept: a shape that
  // fits none was still compared, field by field, and its fields count as
  // checked (its findings say where it differs).
  let best: ContractReport | undefined;
  for (const option of options) {
    const trial: ContractReport = { findings: [], checked: { ...report.checked }, declared: report.declared };
    compareOne(where, declared, option, provider, trial, doc, side, description, top);
    if (!best || trial.findings.length < best.findings.length) best = trial;
    if (trial.findings.length === 0) break;
  }
  if (!best) return;
  report.checked = best.checked;
  report.findings.push(...best.findings);
}

function compareOne(where: string, declared: Schema, published: Schema, provider: Provider, report: ContractReport, doc: JsonObject, side: Side, description?: string, top = false): void {
  const mine = types(declared);
  const theirs = types(published);
  if (mine && theirs) {
    // "null" is left out: an inline document may allow null where the published one forgets to.
    for (const t of mine) {
      if (t !== "null" && !theirs.has(t) && !(t === "integer" && theirs.has("number"))) report.findings.push(`${where}: type ${t}, where ${provider.source} has ${[...theirs].join(" or ")}`);
    }
  }
  if (Array.isArray(declared.enum) && Array.isArray(published.enum)) {
    const extra = declared.enum.filter((v) => !(published.enum as unknown[]).some((e) => sameEnum(provider, v, e)));
    if (extra.length > 0) report.findings.push(`${where}: enum values ${JSON.stringify(extra)} are not among ${provider.source}'s ${JSON.stringify(published.enum)}`);
  }
  if (declared.default !== undefined && published.default !== undefined && JSON.stringify(declared.default) !== JSON.stringify(published.default)) {
    report.findings.push(`${where}: default ${JSON.stringify(declared.default)}, where ${provider.source} has ${JSON.stringify(published.default)}`);
  }
  const max = statedMaximum(published, description);
  if (max !== undefined) {
    if (typeof declared.maximum === "number" && declared.maximum > max) report.findings.push(`${where}: maximum ${declared.maximum}, above ${provider.source}'s ${max}`);
    if (typeof declared.default === "number" && declared.default > max) report.findings.push(`${where}: default ${declared.default}, above ${provider.source}'s maximum ${max}`);
  }
  if (isObject(declared.properties)) {
    const theirs = isObject(published.properties) ? published.properties : undefined;
    for (const [name, sub] of Object.entries(declared.properties)) {
      report.checked.fields++;
      const match = theirs?.[name];
      if (match !== undefined) compareSchema(`${where}.${name}`, local(doc, sub), provider.description.schema(match), provider, report, doc, side);
      else if (theirs || !isObject(published.additionalProperties)) report.findings.push(`${where}: field ${name} is not in ${provider.source}${theirs ? ` (it has ${nearest(name, Object.keys(theirs))})` : ""}`);
    }
    if (theirs) compareRequired(where, declared, published, theirs, provider, report, side, top);
  }
  if (declared.items !== undefined && published.items !== undefined) {
    compareSchema(`${where}[]`, local(doc, declared.items), provider.description.schema(published.items), provider, report, doc, side);
  }
}

/** Which way a schema's values travel: sent to the provider, or answered by it. */
type Side = "request" | "response";

/** The names a schema's `required` lists. */
function requiredOf(schema: Schema): string[] {
  return Array.isArray(schema.required) ? schema.required.map(String) : [];
}

/**
 * Required-ness of an object's fields, where both the entry and the
 * description declare its properties. In an answer, a field the entry
 * requires must be one the description promises (requires): otherwise
 * Stepgate refuses, and a gate relies on, an answer the provider may send
 * without it. In a request, a field the description requires must be
 * required by the entry too, or a call can go out that the provider
 * rejects; at the top of a request body a required field the entry does not
 * declare at all is checkBody's finding, below it this one's. A request
 * field the entry requires and the description leaves optional is stricter,
 * not wrong, and still a finding: kept only as a waiver that says why.
 */
function compareRequired(where: string, declared: Schema, published: Schema, theirs: JsonObject, provider: Provider, report: ContractReport, side: Side, top: boolean): void {
  const mine = isObject(declared.properties) ? declared.properties : {};
  const ours = requiredOf(declared);
  const promised = requiredOf(published);
  for (const name of ours) {
    // A name the description does not have is already a finding of its own.
    if (theirs[name] === undefined || promised.includes(name)) continue;
    report.findings.push(side === "response" ? `${where}: field ${name} is required here, where ${provider.source} does not promise it` : `${where}: field ${name} is required here and optional in ${provider.source}`);
  }
  if (side !== "request") return;
  for (const name of promised) {
    if (ours.includes(name)) continue;
    if (mine[name] !== undefined) report.findings.push(`${where}: field ${name} is required in ${provider.source}, and optional here`);
    else if (!top) report.findings.push(`${where}: field ${name} is required in ${provider.source}, and not declared`);
  }
}

/** Whether a value is a published enum value, in the provider's spelling of enums. */
function sameEnum(provider: Provider, value: unknown, published: unknown): boolean {
  const spell = (v: unknown): string => (provider.enumNames === "proto" && typeof v === "string" ? v.replaceAll("_", "").toLowerCase() : JSON.stringify(v));
  return spell(value) === spell(published);
}

function nearest(name: string, names: string[]): string {
  const close = names.filter((n) => n.includes(name) || name.includes(n) || n.toLowerCase() === name.toLowerCase());
  return (close.length > 0 ? close : names).slice(0, 6).join(", ");
}

/** Whether a value is a template expression rather than literal data. */
function isExpression(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length === 1 && isOperatorKey(Object.keys(value)[0]!);
}
const OPERATOR = /^(var|cat|if|map|filter|reduce|merge|get|object|assign|join|results|length|unique|substr|lower|match_all|sort_by|difference|subset|flatten|keys|time_add|time_diff|host|min|max|all|some|none|in|missing|missing_some|log|and|or|!|!!|==|===|!=|!==|<|<=|>|>=|\+|-|\*|\/|%)$/;
function isOperatorKey(key: string): boolean {
  return OPERATOR.test(key);
}

/**
 * The literal values an `if` can give (each branch's value and the else),
 * so a computed choice between literals (make_latest: "false" or "legacy")
 * is held to the published schema like a literal; other expressions give none.
 */
function ifOutcomes(value: unknown): unknown[] {
  if (!isExpression(value) || !isObject(value) || !Array.isArray(value.if)) return [];
  const args = value.if as unknown[];
  const outcomes = args.filter((_, i) => i % 2 === 1 || i === args.length - 1);
  return outcomes.flatMap((o) => (isExpression(o) ? ifOutcomes(o) : [o]));
}

/** Checks a literal value a call sends against the published schema. */
function checkLiteral(where: string, value: unknown, schema: Schema, provider: Provider, report: ContractReport, description?: string): void {
  if (isExpression(value)) {
    for (const outcome of ifOutcomes(value)) checkLiteral(where, outcome, schema, provider, report, description);
    return;
  }
  report.checked.literals++;
  const options = alternatives(schema, provider);
  const problems = options.map((option) => literalProblems(value, option, provider, description));
  const fitting = options.filter((_, i) => problems[i]!.length === 0);
  if (fitting.length === 0) {
    report.findings.push(...problems[0]!.map((p) => `${where}: ${JSON.stringify(value)} ${p}`));
    return;
  }
  // Of the alternatives the value fits at its top, the one its items and
  // fields fit too (Intercom's compound query has `operator` and `value`
  // like a single filter, but its value is a list of filters); when none
  // fits whole, the one it misses least, so a misspelt operator in one
  // filter of an AND group is reported against that filter, not as a
  // single filter whose operator "AND" is wrong.
  const deep = fitting.map((option) => {
    const scratch: ContractReport = { findings: [], checked: { operations: 0, parameters: 0, fields: 0, literals: 0, paths: 0 }, declared: { operations: 0, parameters: 0, fields: 0 } };
    checkParts(where, value, option, provider, scratch);
    return scratch;
  });
  // Between alternatives missed as often, the one read deeper (more of the
  // value's fields compared) is the one the value was written for.
  const chosen = deep.reduce((best, r) => (r.findings.length < best.findings.length || (r.findings.length === best.findings.length && r.checked.literals > best.checked.literals) ? r : best));
  report.findings.push(...chosen.findings);
  report.checked.literals += chosen.checked.literals;
}

/**
 * A literal list or object held item by item and field by field
 * (dimensions: [query] to its enum, a search filter's operator to its own).
 */
function checkParts(where: string, value: unknown, option: Schema, provider: Provider, report: ContractReport): void {
  if (Array.isArray(value) && option.items !== undefined) {
    const items = provider.description.schema(option.items);
    value.forEach((item, i) => checkLiteral(`${where}[${i}]`, item, items, provider, report));
  } else if (isObject(value) && isObject(option.properties)) {
    for (const [field, sub] of Object.entries(value)) {
      const property = (option.properties as JsonObject)[field];
      if (property !== undefined) checkLiteral(`${where}.${field}`, sub, provider.description.schema(property), provider, report);
    }
  }
}

function literalProblems(value: unknown, schema: Schema, provider: Provider, description?: string): string[] {
  const problems: string[] = [];
  const t = types(schema);
  const kind = value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value;
  if (t && !(t.has(kind) || (kind === "integer" && t.has("number")) || (kind === "number" && t.has("number")))) problems.push(`is ${kind}, where ${provider.source} has ${[...t].join(" or ")}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => sameEnum(provider, value, e))) problems.push(`is not one of ${provider.source}'s ${JSON.stringify(schema.enum)}`);
  if (typeof value === "number") {
    const max = statedMaximum(schema, description);
    if (max !== undefined && value > max) problems.push(`is above ${provider.source}'s maximum ${max}${typeof schema.maximum === "number" ? "" : ' (stated in its description: "(max ' + String(max) + ')")'}`);
    if (typeof schema.minimum === "number" && value < schema.minimum) problems.push(`is below ${provider.source}'s minimum ${schema.minimum}`);
  }
  if (typeof value === "string" && typeof schema.maxLength === "number" && value.length > schema.maxLength) problems.push(`is longer than ${provider.source}'s maxLength ${schema.maxLength}`);
  if (isObject(value) && !isExpression(value) && isObject(schema.properties)) {
    for (const name of Object.keys(value)) {
      if (!(name in schema.properties) && !isObject(schema.additionalProperties)) problems.push(`has field ${name}, which ${provider.source} does not list`);
    }
  }
  return problems;
}

/**
 * The properties of the published request body a call's fields are checked
 * against: the body's own, or, for a body that is one of several shapes
 * (Intercom's POST /conversations/{id}/parts takes a close, snooze, open or
 * assignment request), the first alternative that has every field sent.
 */
function bodyProperties(body: Schema, fields: string[], provider: Provider): JsonObject {
  const options = alternatives(body, provider).map((o) => (isObject(o.properties) ? o.properties : {}));
  return options.find((p) => fields.every((f) => f in p)) ?? options[0] ?? {};
}

/** The mechanical calls' arguments and the response paths the stepfile reads. */
function checkCalls(stepfile: StepfileDocument, published: Map<string, PublishedOperation>, bodyTypes: Map<string, string>, provider: Provider, report: ContractReport): void {
  // As Stepgate reads responses.<id> and results: the success statuses plus
  // `default`, which is where a provider that answers errors with 200
  // (Slack's `ok: false`) describes that body.
  const successBody = (id: string): Schema | undefined => {
    const pub = published.get(id);
    if (!pub) return undefined;
    // The body in the media type the call is answered in.
    const type = bodyTypes.get(id) ?? "application/json";
    const success = [...pub.responses].find(([status, bodies]) => /^2\d\d$/.test(status) && bodies.has(type))?.[1].get(type);
    const fallback = pub.responses.get("default")?.get(type);
    return success && fallback ? { anyOf: [success, fallback] } : success;
  };
  for (const step of stepfile.steps) {
    const roots = new Map<string, Schema>();
    for (const call of step.do?.calls ?? []) {
      const pub = published.get(call.operation);
      if (!pub || !isObject(call.arguments)) continue;
      const where = `step ${step.id}, call ${call.id} (${call.operation})`;
      for (const [name, value] of Object.entries(call.arguments)) {
        if (name === "body" && pub.body) {
          if (isObject(value) && !isExpression(value)) {
            const properties = bodyProperties(pub.body, Object.keys(value), provider);
            for (const [field, sub] of Object.entries(value)) {
              const schema = properties[field] ?? anyProperty(pub.body, field, provider);
              if (schema === undefined) report.findings.push(`${where}: body field ${field} is not in ${provider.source}`);
              else checkLiteral(`${where}: body.${field}`, sub, provider.description.schema(schema), provider, report);
            }
          }
          continue;
        }
        const param = pub.parameters.find((p) => p.name === name);
        if (!param && prefixVariables(provider).includes(name)) continue;
        if (!param) {
          if (!Object.keys(provider.commonHeaders).some((h) => h.toLowerCase() === name.toLowerCase())) report.findings.push(`${where}: argument ${name} is no parameter of ${provider.source}'s operation`);
          continue;
        }
        checkLiteral(`${where}: ${name}`, value, param.schema, provider, report, param.description);
      }
      const success = successBody(call.operation);
      const asked = Array.isArray(call.arguments.opt_fields) && optFieldsEnum(pub, provider) ? call.arguments.opt_fields.filter((f): f is string => typeof f === "string") : undefined;
      const body = success && asked ? withFields(success, asked, provider) : success;
      if (body) roots.set(call.id, call.each !== undefined ? { type: "array", items: body } : body);
    }
    const reader = new PathReader(provider, report, `step ${step.id}`);
    if (step.do) reader.walk(step.do.output, { roots, item: undefined });
    if (step.do) {
      for (const call of step.do.calls ?? []) {
        reader.walk(call.arguments, { roots, item: undefined });
        // An each that reads an earlier call's response (the next page's offset token) is held to it too.
        if (call.each !== undefined) reader.walk(call.each, { roots, item: undefined });
      }
    }
    const results = (id: string): Schema | undefined => successBody(id);
    for (const expression of [...(step.gates ?? []).flatMap((g) => [g.predicate, g.explain]), ...Object.values(step.let ?? {}), ...Object.values(step.derive ?? {})]) {
      reader.walk(expression, { roots: new Map(), item: undefined, results });
    }
  }
  for (const tool of Object.values(stepfile.tools ?? {})) {
    if (tool.openapi?.server !== provider.server) continue;
    for (const e of tool.exposes ?? []) {
      if (typeof e === "string" || e.select === undefined) continue;
      const body = successBody(e.name);
      if (body) new PathReader(provider, report, `select of ${e.name}`).walk(e.select, { roots: new Map(), item: body });
    }
  }
}

interface Scope {
  roots: Map<string, Schema>;
  /** The schema `var` paths inside an iteration (or a select) are relative to. */
  item: Schema | undefined;
  results?: (operation: string) => Schema | undefined;
}

const ITERATORS = new Set(["map", "filter", "all", "some", "none", "sort_by"]);

/** Walks expressions and resolves every path that reads a response in the published schema. */
class PathReader {
  constructor(
    private readonly provider: Provider,
    private readonly report: ContractReport,
    private readonly where: string,
  ) {}

  /** Walks an expression; returns the published schema of its value when it is a response's part. */
  walk(expr: unknown, scope: Scope): Schema | undefined {
    if (Array.isArray(expr)) {
      for (const e of expr) this.walk(e, scope);
      return undefined;
    }
    if (!isObject(expr)) return undefined;
    const keys = Object.keys(expr);
    if (keys.length !== 1 || !isOperatorKey(keys[0]!)) {
      for (const v of Object.values(expr)) this.walk(v, scope);
      return undefined;
    }
    const op = keys[0]!;
    const raw = expr[op];
    const args = Array.isArray(raw) ? raw : [raw];
    if (op === "var") return typeof args[0] === "string" ? this.path(args[0], scope) : undefined;
    if (op === "results" && scope.results && typeof args[0] === "string") {
      const body = scope.results(args[0]);
      if (!body) return undefined;
      // One value per call, lists flattened one level (as Stepgate's results
      // gives them): a list of the part, so a join or map over the results
      // of retrieveConversation reads each conversation's fields.
      const part = typeof args[1] === "string" ? this.resolve(body, args[1].split("."), `results of ${args[0]}`) : body;
      if (!part) return undefined;
      return this.items(part) !== undefined ? part : { type: "array", items: part };
    }
    if (ITERATORS.has(op)) {
      const list = this.walk(args[0], scope);
      const item = list ? this.items(list) : undefined;
      let mapped: Schema | undefined;
      if (op === "sort_by" && item && typeof args[1] === "string") this.resolve(item, args[1].split("."), "sort_by");
      else mapped = this.walk(args[1], { ...scope, item });
      // A map of a response's part onto another part (each page's vulns) is a list of that part.
      if (op === "map") return mapped ? { type: "array", items: mapped } : undefined;
      return op === "filter" || op === "sort_by" ? list : undefined;
    }
    if (op === "flatten") {
      // One level of nesting removed: a list of lists of records is a list of records.
      const list = this.walk(args[0], scope);
      const inner = list ? this.items(list) : undefined;
      return inner && inner.items !== undefined ? inner : list;
    }
    if (op === "join") {
      const left = this.walk(args[0], scope);
      const right = this.walk(args[1], scope);
      const l = left ? this.items(left) : undefined;
      const r = right ? this.items(right) : undefined;
      if (l && typeof args[2] === "string") this.resolve(l, args[2].split("."), "join");
      if (r && typeof args[3] === "string") this.resolve(r, args[3].split("."), "join");
      if (!l && !r) return undefined;
      return { type: "array", items: { type: "object", properties: { left: l ?? {}, right: r ?? {} } } };
    }
    if (op === "reduce") {
      const list = this.walk(args[0], scope);
      const item = list ? this.items(list) : undefined;
      this.walk(args[2], scope);
      this.walk(args[1], { ...scope, item: item ? { type: "object", properties: { current: item } } : undefined });
      return undefined;
    }
    for (const a of args) this.walk(a, scope);
    return undefined;
  }

  private path(path: string, scope: Scope): Schema | undefined {
    const segments = path.split(".");
    if (segments[0] === "responses" && segments.length >= 2) {
      const root = scope.roots.get(segments[1]!);
      return root ? this.resolve(root, segments.slice(2), `responses.${segments[1]}`) : undefined;
    }
    if (scope.item && !["inputs", "steps", "output", "let", "calls", "accumulator", "item", "responses", ""].includes(segments[0]!)) {
      return this.resolve(scope.item, segments, "the item");
    }
    return undefined;
  }

  private items(list: Schema): Schema | undefined {
    for (const option of alternatives(list, this.provider)) if (option.items !== undefined) return this.provider.description.schema(option.items);
    return undefined;
  }

  /** Resolves path segments in a published schema, reporting the first that is not there. */
  private resolve(schema: Schema, segments: string[], from: string): Schema | undefined {
    if (segments.length === 0 || (segments.length === 1 && segments[0] === "")) return schema;
    this.report.checked.paths++;
    let current: Schema | undefined = schema;
    const walked: string[] = [];
    for (const segment of segments) {
      if (!current) return undefined;
      const options = alternatives(current, this.provider);
      let next: Schema | undefined;
      let open = false;
      for (const option of options) {
        if (/^\d+$/.test(segment) && option.items !== undefined) next = this.provider.description.schema(option.items);
        else if (isObject(option.properties) && (option.properties as JsonObject)[segment] !== undefined) next = this.provider.description.schema((option.properties as JsonObject)[segment]);
        else if (isObject(option.additionalProperties)) next = this.provider.description.schema(option.additionalProperties);
        else if (!isObject(option.properties) && option.items === undefined) open = true;
        if (next) break;
      }
      if (!next) {
        if (open) return undefined;
        const names = options.flatMap((o) => (isObject(o.properties) ? Object.keys(o.properties) : []));
        this.report.findings.push(`${this.where}: ${from}.${[...walked, segment].join(".")} reads ${segment}, which ${this.provider.source} does not declare there${names.length > 0 ? ` (it has ${nearest(segment, names)})` : ""}`);
        return undefined;
      }
      walked.push(segment);
      current = next;
    }
    return current;
  }
}
