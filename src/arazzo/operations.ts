// Which OpenAPI operation an Arazzo step calls: `operationId` (bare, or
// `$sourceDescriptions.<name>.<operationId>`) or `operationPath`
// (`{$sourceDescriptions.<name>.url}#/paths/~1pets/get`), per the Step
// Object (OAI/Arazzo-Specification versions/1.0.1.md at
// fc140d26c440291b0061c62a53e45a8fb07cc369). A stepfile exposes operations by
// operationId (format section 2); an operation without one gets one only in
// an inlined document, whose copy is ours to add it to.
//
// Two more spellings are read as Redocly Respect reads them (@redocly/cli
// 2.77.0, lib/chunks/55WUEWKZ.js, functions `go` and `bo`), because Redocly's
// own museum example (Redocly/museum-openapi-example at 2770b2b,
// arazzo/museum-api.arazzo.yaml) is written with them: `<name>.<operationId>`,
// and an operationPath whose source part is `$sourceDescriptions.<name>` or
// the source's `url` itself. Source names cannot hold a dot (the Source
// Description Object's name pattern is `^[A-Za-z0-9_\-]+$`), so
// `<name>.<operationId>` is read that way only when no source defines the
// whole text as an operationId.
//
// And one as Jentic's runner reads it (jentic/arazzo-engine at 863308e,
// runner/arazzo_runner/executor/operation_finder.py, `find_by_path` and
// `_find_source_description`: the part before `#` is a source's name or its
// url), which its own fixtures are written with
// (runner/tests/fixtures/xkcd/xkcd.arazzo.yaml: `xkcdApi#/paths/...`): a
// source's bare name before the `#`. A source's url as written is matched
// first, being what the specification's `{$sourceDescriptions.<name>.url}`
// stands for.
import { closestNames } from "../format/closest-names.js";
import { HTTP_METHODS } from "../format/http-methods.js";
import { isObject, resolvePointer, unescapePointerToken, type JsonObject } from "../format/json-pointer.js";
import { refuse, type Place } from "./refusals.js";
import type { LoadedSource, SourceState } from "./sources.js";

export interface FoundOperation {
  source: LoadedSource;
  operationId: string;
  method: string;
  pathTemplate: string;
  pathItem: JsonObject;
  operation: JsonObject;
}

export function findOperation(step: JsonObject, sources: ReadonlyMap<string, SourceState>, place: Place): FoundOperation {
  if (typeof step.operationId === "string") return byId(step.operationId, sources, place);
  return byPath(String(step.operationPath), sources, place);
}

function usable(name: string, sources: ReadonlyMap<string, SourceState>, place: Place, construct: string): LoadedSource {
  const state = sources.get(name);
  if (!state) refuse(place, construct, `no sourceDescription is named ${name}`, "name one of the document's sourceDescriptions");
  if ("problem" in state) refuse(place, construct, state.problem.reason, state.problem.fix);
  if ("arazzo" in state) refuse(place, construct, `source ${name} is an Arazzo document, which holds workflows, not operations`, `run its workflow with workflowId: $sourceDescriptions.${name}.<workflowId>, or name an OpenAPI source`);
  return state.source;
}

function byId(raw: string, sources: ReadonlyMap<string, SourceState>, place: Place, construct = `operationId ${raw}`): FoundOperation {
  const qualified = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(raw);
  const names = qualified ? [qualified[1]!] : [...sources.keys()];
  const id = qualified ? qualified[2]! : raw;
  const found: FoundOperation[] = [];
  // Two names for one loaded document (sources.ts) define its operations once.
  const seen = new Set<LoadedSource>();
  for (const name of names) {
    const state = sources.get(name);
    if (!qualified && state && !("source" in state)) continue;
    const source = usable(name, sources, place, construct);
    if (seen.has(source)) continue;
    seen.add(source);
    for (const op of operationsOf(source)) if (op.operation.operationId === id) found.push({ ...op, operationId: id });
  }
  if (found.length === 1) return found[0]!;
  if (found.length > 1) refuse(place, construct, `several sources define operationId ${id}`, `write it as $sourceDescriptions.<name>.${id}`);
  const named = qualified ? undefined : /^([A-Za-z0-9_-]+)\.(.+)$/.exec(raw);
  const namedState = named ? sources.get(named[1]!) : undefined;
  if (named && namedState) return byId(`$sourceDescriptions.${named[1]!}.${named[2]!}`, sources, place, construct);
  // An Arazzo source holds workflows, not operations, so it cannot be where an operationId is missing from.
  const problems = [...sources.values()].filter((s): s is { problem: { reason: string; fix: string }; type: string } => "problem" in s && s.type !== "arazzo");
  if (!qualified && problems.length > 0) {
    refuse(place, construct, problems.map((p) => p.problem.reason).join("; "), problems.map((p) => p.problem.fix).join("; or "));
  }
  const known = names.flatMap((n) => {
    const state = sources.get(n);
    return state && "source" in state ? [...operationsOf(state.source)].map((o) => o.operation.operationId).filter((o): o is string => typeof o === "string") : [];
  });
  const near = closestNames(id, known);
  return refuse(place, construct, `no operation of ${names.join(", ")} has operationId ${id}`, near.length > 0 ? `name an operationId the OpenAPI document defines (did you mean ${near.join(" or ")}?)` : "name an operationId the OpenAPI document defines");
}

function byPath(raw: string, sources: ReadonlyMap<string, SourceState>, place: Place): FoundOperation {
  const construct = `operationPath ${raw}`;
  const hash = raw.indexOf("#");
  const [prefix, pointer] = hash === -1 ? [raw, ""] : [raw.slice(0, hash), raw.slice(hash + 1)];
  const name = sourceNamed(prefix, sources);
  if (name === undefined && /^[A-Za-z0-9_-]+$/.test(prefix) && pointer.startsWith("/")) {
    refuse(place, construct, `no sourceDescription is named ${prefix}, nor has it as its url`, `name one of the document's sourceDescriptions (${[...sources.keys()].join(", ")})`);
  }
  if (name === undefined || !pointer.startsWith("/")) {
    refuse(place, construct, "it is not {$sourceDescriptions.<name>.url}#<JSON Pointer> (nor $sourceDescriptions.<name>, <name> or a source's url before the #)", "write it in that form, or use operationId");
  }
  const source = usable(name, sources, place, construct);
  const tokens = pointer.slice(1).split("/").map(unescapePointerToken);
  const [paths, pathTemplate, method] = tokens;
  if (paths !== "paths" || pathTemplate === undefined || tokens.length !== 3 || !HTTP_METHODS.includes(method as (typeof HTTP_METHODS)[number])) {
    refuse(place, construct, "it does not point at an operation (#/paths/<path>/<method>)", `add the method, as ${raw.replace(/\/(get|put|post|delete|patch)?$/, "")}/get`);
  }
  const pathItem = resolvePointer(source.document, `#/paths/${tokens[1]!.replaceAll("~", "~0").replaceAll("/", "~1")}`);
  const operation = isObject(pathItem) ? pathItem[method!] : undefined;
  if (!isObject(pathItem) || !isObject(operation)) refuse(place, construct, `source ${source.name} has no ${method!.toUpperCase()} ${pathTemplate}`, "point at an operation the document defines");
  let operationId = typeof operation.operationId === "string" ? operation.operationId : undefined;
  if (operationId === undefined) {
    if (source.origin.kind === "pinned") {
      refuse(place, construct, `the operation has no operationId, and a stepfile exposes operations by operationId; the document is pinned by its digest, so none can be added`, `name a local copy with --source ${source.name}=<file>, which is inlined and given one`);
    }
    operationId = synthesizedId(method!, pathTemplate, source.document);
    operation.operationId = operationId;
  }
  return { source, operationId, method: method!, pathTemplate, pathItem, operation };
}

/** The source an operationPath's part before `#` names: `{$sourceDescriptions.<name>.url}`, `$sourceDescriptions.<name>`, a source's url as written, or a source's bare name (see the file's opening comment). */
function sourceNamed(prefix: string, sources: ReadonlyMap<string, SourceState>): string | undefined {
  return (
    /^\{\$sourceDescriptions\.([^.}]+)\.url\}$/.exec(prefix)?.[1] ??
    /^\$sourceDescriptions\.([A-Za-z0-9_-]+)$/.exec(prefix)?.[1] ??
    [...sources].find(([, s]) => "source" in s && s.source.url === prefix)?.[0] ??
    (sources.has(prefix) ? prefix : undefined)
  );
}

function* operationsOf(source: LoadedSource): Generator<Omit<FoundOperation, "operationId">> {
  for (const [pathTemplate, pathItem] of Object.entries(source.document.paths as JsonObject)) {
    if (!isObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (isObject(operation)) yield { source, method, pathTemplate, pathItem, operation };
    }
  }
}

/** `get-pet-find-by-status` for GET /pet/findByStatus: a name exposes can take (`^[a-zA-Z0-9_-]{1,64}$`), unused in the document. */
function synthesizedId(method: string, pathTemplate: string, document: JsonObject): string {
  const base = `${method}${pathTemplate.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+/g, "-")}`.replace(/-+$/, "").slice(0, 60);
  const taken = new Set<string>();
  for (const item of Object.values(document.paths as JsonObject)) {
    if (!isObject(item)) continue;
    for (const m of HTTP_METHODS) if (isObject(item[m]) && typeof (item[m] as JsonObject).operationId === "string") taken.add((item[m] as JsonObject).operationId as string);
  }
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

/** The status codes an operation documents as success (2xx), and whether it documents a redirect, which egress follows. */
export function documentedStatuses(operation: JsonObject): { success: number[]; redirects: boolean } {
  const codes = isObject(operation.responses) ? Object.keys(operation.responses) : [];
  const success = codes.filter((c) => /^2\d\d$/.test(c)).map(Number);
  return { success, redirects: codes.some((c) => /^3(\d\d|XX)$/i.test(c)) };
}
