// sourceDescriptions (Arazzo Specification, "Source Description Object",
// OAI/Arazzo-Specification versions/1.0.1.md at fc140d26c440291b0061c62a53e45a8fb07cc369)
// loaded once per document, before any workflow converts:
// - an `openapi` source given as a local file (a relative url, resolved
//   against the Arazzo document's folder, or a local copy the user names for
//   it) is inlined as the tool's `document`;
// - a remote one is fetched the way stepgate_inspect_api fetches (public
//   https only, through egress, no credential) and pinned by `url` + `sha256`
//   of the bytes fetched, which preflight checks again at every run;
// - any other type (arazzo, asyncapi, graphql, grpc, ...) cannot be a
//   stepfile tool: the workflows that use it are refused, the rest convert.
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { isObject, type JsonObject } from "../format/json-pointer.js";
import { sha256 } from "../format/identity.js";
import { parseDocument } from "../tools/openapi/load-document.js";

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

export interface LoadedSource {
  name: string;
  /** The OpenAPI document, parsed (inline ones may gain synthesized operationIds, see operations.ts). */
  document: JsonObject;
  origin: { kind: "inline" } | { kind: "pinned"; url: string; sha256: string };
  /** The base URL requests go to: the document's first server, variables at their defaults. */
  server: string;
}

export type SourceState = { source: LoadedSource } | { problem: { reason: string; fix: string } };

export async function loadSources(raw: unknown, options: SourceOptions): Promise<Map<string, SourceState>> {
  const list = (Array.isArray(raw) ? raw : []).filter((e): e is JsonObject => isObject(e) && typeof e.name === "string");
  // Loaded together, kept in the document's order, so messages name them in that order.
  const loaded = await Promise.all(list.map((entry) => loadSource(entry, options)));
  return new Map(list.map((entry, i) => [entry.name as string, loaded[i]!]));
}

async function loadSource(entry: JsonObject, options: SourceOptions): Promise<SourceState> {
  const name = entry.name as string;
  const url = typeof entry.url === "string" ? entry.url : "";
  const type = typeof entry.type === "string" ? entry.type : "openapi";
  if (type !== "openapi") {
    return {
      problem: {
        reason: `source ${name} is of type ${type}; a stepfile's tools are OpenAPI operations, MCP tools and verifiers, so ${type === "arazzo" ? "a workflow of another Arazzo document" : `${type} operations`} cannot be called`,
        fix: type === "arazzo" ? `convert that document too and run its workflow as its own stepfile, or copy the workflow into this document` : `describe the operations this workflow uses with an OpenAPI document`,
      },
    };
  }
  const copy = options.localCopies?.get(name);
  const remote = /^https?:\/\//i.test(url);
  try {
    if (copy !== undefined || !remote) {
      const file = copy !== undefined ? resolve(copy) : resolve(dirname(options.documentPath), url);
      const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
        throw new SourceProblem(`source ${name}: ${file} could not be read (${error.code ?? error.message})`, copy !== undefined ? "name a readable local copy" : `put the OpenAPI document at ${file}, or name a local copy with --source ${name}=<file>`);
      });
      const document = openApi(parseDocument(bytes, file), name);
      return { source: { name, document, origin: { kind: "inline" }, server: options.servers?.get(name) ?? serverOf(document, name, undefined) } };
    }
    if (!options.fetchRemote) throw new SourceProblem(`source ${name} is at ${url}, which is not fetched here`, `name a local copy with --source ${name}=<file>`);
    const bytes = await options.fetchRemote(url).catch((error: Error) => {
      throw new SourceProblem(`source ${name} could not be fetched from ${url}: ${error.message}`, `name a local copy with --source ${name}=<file>`);
    });
    const document = openApi(parseDocument(bytes, url), name);
    return { source: { name, document, origin: { kind: "pinned", url, sha256: sha256(bytes) }, server: options.servers?.get(name) ?? serverOf(document, name, url) } };
  } catch (error) {
    if (error instanceof SourceProblem) return { problem: { reason: error.message, fix: error.fix } };
    // parseDocument's ApiDocumentInvalid: the text is not a document at all.
    return { problem: { reason: `source ${name}: ${(error as Error).message}`, fix: "give an OpenAPI 3.x document in JSON or YAML" } };
  }
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
