// sourceDescriptions (Arazzo Specification, "Source Description Object",
// OAI/Arazzo-Specification versions/1.0.1.md at fc140d26c440291b0061c62a53e45a8fb07cc369)
// loaded once per document, before any workflow converts:
// - an `openapi` source given as a local file (a relative url, resolved
//   against the Arazzo document's folder, or a local copy the user names for
//   it) is inlined as the tool's `document`;
// - a remote one is fetched the way stepgate_inspect_api fetches (public
//   https only, through egress, no credential) and pinned by `url` + `sha256`
//   of the bytes fetched, which preflight checks again at every run;
// - an `arazzo` source (another Arazzo document, local or fetched the same
//   way) is read and validated like the document itself, with its own
//   sources loaded relative to where it is, so a `workflowId:
//   $sourceDescriptions.<name>.<workflowId>` step can inline its workflow
//   (steps.ts). One file or URL is loaded once however many documents (or
//   names) name it, so two documents naming the same OpenAPI document share
//   one tool, unless a name's requests go to another server (--server);
// - any other type (asyncapi, graphql, grpc, ...) cannot be a stepfile
//   tool: the workflows that use it are refused, the rest convert.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { StepfileInvalid } from "../errors.js";
import { isObject, type JsonObject } from "../format/json-pointer.js";
import { sha256 } from "../format/identity.js";
import { parseDocument } from "../tools/openapi/load-document.js";
import { readArazzo } from "./document.js";

export interface SourceOptions {
  /** The Arazzo document's own path: relative source urls resolve against its folder. */
  documentPath: string;
  /** Local copies the user names for sources (`--source <name>=<file>`), inlined instead of fetched. */
  localCopies?: ReadonlyMap<string, string>;
  /** Base URLs the user names for sources (`--server <name>=<url>`), used instead of the document's servers. */
  servers?: ReadonlyMap<string, string>;
  /** Fetch a remote document's bytes (stepgate_inspect_api's way); absent, a remote source needs a local copy. */
  fetchRemote?: (url: string) => Promise<Uint8Array>;
}

/** What one conversion has loaded, by file path or URL (its OpenAPI documents shared by every document it reaches). */
export type Loaded = Map<string, Promise<SourceState>>;

export interface LoadedSource {
  name: string;
  /** The sourceDescription's url as written (an operationPath may name the source by it). */
  url: string;
  /** The OpenAPI document, parsed (inline ones may gain synthesized operationIds, see operations.ts). */
  document: JsonObject;
  origin: { kind: "inline" } | { kind: "pinned"; url: string; sha256: string };
  /** The base URL requests go to: the document's first server, variables at their defaults. */
  server: string;
}

/** Another Arazzo document this one names as a source: its workflows can be inlined by a workflowId step. */
export interface LoadedArazzo {
  name: string;
  /** Its file path or URL: with a workflowId, what tells its workflows from this document's (a loop through documents is still a loop). */
  location: string;
  document: JsonObject;
  sources: ReadonlyMap<string, SourceState>;
}

/** `type`: the source's, so a missing operationId is not blamed on an Arazzo source that failed to load. */
export type SourceState = { source: LoadedSource } | { arazzo: LoadedArazzo } | { problem: { reason: string; fix: string }; type: string };

/**
 * `within`: the Arazzo documents being read, outermost first, ending with
 * this one: a source naming one of them would wait for itself.
 */
export async function loadSources(raw: unknown, options: SourceOptions, loaded: Loaded = new Map(), within: readonly string[] = [location(options.documentPath)]): Promise<Map<string, SourceState>> {
  const list = (Array.isArray(raw) ? raw : []).filter((e): e is JsonObject => isObject(e) && typeof e.name === "string");
  // Loaded together, kept in the document's order, so messages name them in that order.
  const states = await Promise.all(list.map((entry) => loadSource(entry, options, loaded, within)));
  return new Map(list.map((entry, i) => [entry.name as string, states[i]!]));
}

const isUrl = (text: string) => /^https?:\/\//i.test(text);
const location = (path: string) => (isUrl(path) ? path : resolve(path));

function loadSource(entry: JsonObject, options: SourceOptions, loaded: Loaded, within: readonly string[]): Promise<SourceState> {
  const name = entry.name as string;
  const url = typeof entry.url === "string" ? entry.url : "";
  const type = typeof entry.type === "string" ? entry.type : "openapi";
  if (type !== "openapi" && type !== "arazzo") {
    return Promise.resolve({ problem: { reason: `source ${name} is of type ${type}; a stepfile's tools are OpenAPI operations, MCP tools and verifiers, so ${type} operations cannot be called`, fix: "describe the operations this workflow uses with an OpenAPI document" }, type });
  }
  const copy = options.localCopies?.get(name);
  // A relative url resolves against the document naming it: its folder, or its URL when it was fetched.
  const where = copy !== undefined ? resolve(copy) : isUrl(url) ? url : isUrl(options.documentPath) ? new URL(url, options.documentPath).href : resolve(dirname(options.documentPath), url);
  const remote = isUrl(where);
  if (within.includes(where)) {
    const chain = [...within.slice(within.indexOf(where)), where].join(" -> ");
    return Promise.resolve({ problem: { reason: `source ${name} is a document already being read (${chain})`, fix: within.at(-1) === where ? "run this document's own workflows by their plain workflowId" : "break the loop of documents naming each other" }, type });
  }
  // An OpenAPI document awaits nothing, so one load serves every document naming it. An Arazzo one is loaded for
  // each document naming it: two loading at once that name each other would each wait for the other.
  let state = type === "openapi" ? loaded.get(where) : undefined;
  if (!state) {
    state = (async (): Promise<SourceState> => {
      try {
        const bytes = await sourceBytes(name, where, remote, copy !== undefined ? undefined : url, options);
        if (type === "arazzo") return { arazzo: await arazzoSource(name, where, bytes, options, loaded, within) };
        const document = openApi(parseDocument(bytes, where), name);
        const origin = remote ? { kind: "pinned" as const, url: where, sha256: sha256(bytes) } : { kind: "inline" as const };
        return { source: { name, url, document, origin, server: options.servers?.get(name) ?? serverOf(document, name, remote ? where : undefined) } };
      } catch (error) {
        if (error instanceof SourceProblem) return { problem: { reason: error.message, fix: error.fix }, type };
        // parseDocument's ApiDocumentInvalid: the text is not a document at all.
        return { problem: { reason: `source ${name}: ${(error as Error).message}`, fix: `give an ${type === "arazzo" ? "Arazzo" : "OpenAPI 3.x"} document in JSON or YAML` }, type };
      }
    })();
    loaded.set(where, state);
  }
  return type === "openapi" ? state.then((shared) => withOwnServer(shared, name, url, remote ? where : undefined, options)) : state;
}

/**
 * A source loaded under another name (the same file or URL) is that name's
 * too, one tool, unless this name's requests go elsewhere (its own
 * --server): then it is its own source, so its calls are not sent to the
 * other name's server.
 */
function withOwnServer(shared: SourceState, name: string, url: string, fetchedFrom: string | undefined, options: SourceOptions): SourceState {
  if (!("source" in shared) || shared.source.name === name) return shared;
  try {
    const server = options.servers?.get(name) ?? serverOf(shared.source.document, name, fetchedFrom);
    return server === shared.source.server ? shared : { source: { ...shared.source, name, url, server } };
  } catch (error) {
    if (error instanceof SourceProblem) return { problem: { reason: error.message, fix: error.fix }, type: "openapi" };
    throw error;
  }
}

/** `written`: the url as the document writes it; undefined for a --source copy. */
async function sourceBytes(name: string, location: string, remote: boolean, written: string | undefined, options: SourceOptions): Promise<Uint8Array> {
  if (!remote) {
    return readFile(location).catch((error: NodeJS.ErrnoException) => {
      if (written === undefined) throw new SourceProblem(`source ${name}: ${location} could not be read (${error.code ?? error.message})`, "name a readable local copy");
      // Some runners resolve a relative url from the folder they run in (Jentic's cookbook at 47afafb is written so);
      // Arazzo resolves it from the document's (RFC 3986, 5.1), so where the file is found that way is only named.
      const fromHere = relative(process.cwd(), resolve(written));
      const elsewhere = !isAbsolute(written) && resolve(written) !== location && existsSync(resolve(written));
      throw new SourceProblem(
        `source ${name}: ${location} could not be read (${error.code ?? error.message}); a relative url is resolved from the Arazzo document's folder`,
        elsewhere ? `name the file found from the current folder with --source ${name}=${fromHere}, or move the document` : `put the document at ${location}, or name a local copy with --source ${name}=<file>`,
      );
    });
  }
  if (!options.fetchRemote) throw new SourceProblem(`source ${name} is at ${location}, which is not fetched here`, `name a local copy with --source ${name}=<file>`);
  return options.fetchRemote(location).catch((error: Error) => {
    throw new SourceProblem(`source ${name} could not be fetched from ${location}: ${error.message}`, `name a local copy with --source ${name}=<file>`);
  });
}

/** Another Arazzo document, read and validated as the first one is (document.ts), its own sources loaded relative to it. */
async function arazzoSource(name: string, location: string, bytes: Uint8Array, options: SourceOptions, loaded: Loaded, within: readonly string[]): Promise<LoadedArazzo> {
  let document: JsonObject;
  try {
    document = readArazzo(new TextDecoder().decode(bytes), location).data;
  } catch (error) {
    if (!(error instanceof StepfileInvalid)) throw error;
    const first = error.issues[0];
    throw new SourceProblem(`source ${name} (${location}) is not an Arazzo document Stepgate can read: ${first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : error.message}`, `check it with stepgate --check ${location}`);
  }
  const sources = await loadSources(document.sourceDescriptions, { ...options, documentPath: location }, loaded, [...within, location]);
  return { name, location, document, sources };
}

class SourceProblem extends Error {
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

function openApi(document: JsonObject, name: string): JsonObject {
  if (typeof document.openapi !== "string" || !/^3\./.test(document.openapi)) {
    throw new SourceProblem(`source ${name} is not an OpenAPI 3.x document${"swagger" in document ? " (it is Swagger 2.0)" : ""}`, "convert it to OpenAPI 3.x");
  }
  if (!isObject(document.paths)) throw new SourceProblem(`source ${name} has no paths`, "give the OpenAPI document with its paths");
  return document;
}

/** The document's first server with its variables at their defaults, made absolute against where the document came from. */
function serverOf(document: JsonObject, name: string, fetchedFrom: string | undefined): string {
  const first = Array.isArray(document.servers) ? document.servers[0] : undefined;
  if (!isObject(first) || typeof first.url !== "string") {
    throw new SourceProblem(`source ${name} lists no servers, so there is no URL to send requests to`, `name the base URL with --server ${name}=https://..., or add servers: [{ url: https://... }] to the OpenAPI document`);
  }
  const variables = isObject(first.variables) ? first.variables : {};
  const url = first.url.replace(/\{([^{}]+)\}/g, (whole, variable: string) => {
    const v = variables[variable];
    return isObject(v) && typeof v.default === "string" ? v.default : whole;
  });
  if (/\{[^{}]+\}/.test(url)) throw new SourceProblem(`source ${name}'s server ${first.url} has a variable with no default`, "give the server variable a default");
  let absolute: URL;
  try {
    absolute = new URL(url, fetchedFrom);
  } catch {
    throw new SourceProblem(`source ${name}'s server ${url} is not an absolute URL`, `name the base URL with --server ${name}=https://..., or make the first servers url absolute`);
  }
  // Format section 2: https, or plain http only on loopback hosts.
  if (absolute.protocol !== "https:" && !(absolute.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(absolute.hostname))) {
    throw new SourceProblem(`source ${name}'s server ${absolute.href} is not https (plain http is only for loopback hosts)`, `name an https base URL with --server ${name}=https://...`);
  }
  return absolute.href.replace(/\/$/, "");
}
