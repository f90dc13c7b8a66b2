// Every finding of one stepfile from the loader's one pass: the errors that
// refuse it, or the warnings of a file that loads, each with its rule id.
// stepgate_validate (a draft's text) and `stepgate --check` (files) both read
// them here, so the two can never disagree.
//
// A tool whose OpenAPI document is pinned by url + sha256 has no operations
// in the file itself, so the checks that read operations would say nothing
// of it. Given a way to fetch it (`fetchPinned`, the fetch preflight makes),
// the rules run again with each fetched document in place of its url; a
// document that is not fetched (no way given: --offline; or the fetch or
// its digest check failed) is itself a finding, `pinned-document-unchecked`,
// naming the tool and the checks that did not run.
//
// Likewise a remote MCP tool: only its server's tools/list says whether a
// tool changes anything, what its results hold (outputSchema) and which
// names it has at all. Given a way to list it (`listMcp`, the listing
// preflight makes, with no credential), every MCP server the file names is
// listed once, and agent-write, undeclared-path and exposes-in-mcp-listing
// read that one listing. A server that is not listed is the finding
// `mcp-tools-unlisted` when an agent step's tools (not declared `effect:
// read`) needed it, naming the tools not judged; otherwise it is silent, as
// a response with no schema is: the paths and names it would have judged
// are simply not judged (a catalog's effect: read servers, listed from a
// machine with no network, stay at no finding).
import { StepfileInvalid, type Issue } from "../errors.js";
import type { StepfileDocument, ToolDef } from "../format/types.js";
import { mcpToolsToJudge, type ListedMcpTool } from "./agent-writes.js";
import { byPlace, loadStepfileText, placeIssues, readStepfileText, type LoadedStepfile } from "./load.js";
import { FileFacts } from "./rules/facts.js";
import { WARNING_RULES } from "./rules/index.js";
import { mcpToolsUnlisted } from "./rules/mcp-tools-unlisted.js";
import { pinnedDocumentUnchecked } from "./rules/pinned-document-unchecked.js";
import type { RawIssue } from "./raw-issue.js";
import { runRules } from "./rules/run.js";
import { syntax } from "./rules/syntax.js";

export interface Findings {
  /** The stepfile, when it loads. */
  loaded?: LoadedStepfile;
  /** What refuses it (StepfileInvalid's issues), by line and column; empty when it loads. */
  errors: Issue[];
  /** Likely mistakes in a file that loads, by line and column; empty when it does not. */
  warnings: Issue[];
}

/** Fetches the document tool `toolId` of `doc` pins, checked against its digest; throws, saying why, when it cannot. */
export type FetchPinned = (toolId: string, doc: StepfileDocument) => Promise<Record<string, unknown>>;

/** Lists the tools of the MCP server tool `toolId` of `doc` names; throws, saying why, when it cannot. */
export type ListMcp = (toolId: string, doc: StepfileDocument) => Promise<readonly ListedMcpTool[]>;

export interface FindingOptions {
  /** Rule ids whose findings are left out (`--ignore`). */
  ignore?: ReadonlySet<string>;
  /** How pinned documents are fetched; without it none is, and `unfetched` says why. */
  fetchPinned?: FetchPinned;
  /** How MCP servers are listed; without it none is, and `unfetched` says why. */
  listMcp?: ListMcp;
  /** Why pinned documents are not fetched (and MCP servers not listed) when no way is given, e.g. "--offline skips fetching". */
  unfetched?: string;
}

/** A text's findings, fetching nothing: a pinned document is reported unchecked, saying `options.unfetched`. */
export function textFindings(text: string, source: string, options: FindingOptions = {}): Findings {
  const loaded = tryLoad(text, source);
  return "errors" in loaded ? loaded : found(text, loaded, { documents: new Map(), listings: new Map() }, options);
}

/** A text's findings, each pinned document fetched with `options.fetchPinned` first. */
export async function fetchedFindings(text: string, source: string, options: FindingOptions): Promise<Findings> {
  const loaded = tryLoad(text, source);
  if ("errors" in loaded) return loaded;
  const fetched: Fetched = { documents: new Map(), listings: new Map() };
  const { fetchPinned, listMcp } = options;
  if (fetchPinned) for (const id of pinnedTools(loaded.doc)) fetched.documents.set(id, await got(() => fetchPinned(id, loaded.doc), "could not be fetched"));
  if (listMcp) for (const id of mcpTools(loaded.doc)) fetched.listings.set(id, await got(() => listMcp(id, loaded.doc), "could not be listed"));
  return found(text, loaded, fetched, options);
}

/** What `get` gives, or why it failed, after `failed`. */
async function got<T>(get: () => Promise<T>, failed: string): Promise<{ value: T } | { reason: string }> {
  try {
    return { value: await get() };
  } catch (error) {
    return { reason: `${failed}: ${(error as Error).message}` };
  }
}

/** A file's findings, fetching pinned documents when `options.fetchPinned` is given; a file that cannot be read throws StepfileUnreadable, as loading does. */
export async function fileFindings(path: string, source: string, maxBytes?: number, options: FindingOptions = {}): Promise<Findings> {
  const read = await findingsText(path, source, maxBytes);
  return typeof read === "string" ? fetchedFindings(read, source, options) : read;
}

/** A file's text, read once for every look a check takes at it (`stepgate --check` first asks whether it is an Arazzo document); a file too large is its findings, one that cannot be read throws StepfileUnreadable. */
export async function findingsText(path: string, source: string, maxBytes?: number): Promise<string | Findings> {
  try {
    return await readStepfileText(path, source, maxBytes);
  } catch (error) {
    return refused(error);
  }
}

type Got<T> = { value: T } | { reason: string };

/** What a check fetched for a file: each pinned document and each MCP server's listing, by tool id, or why not. */
interface Fetched {
  documents: Map<string, Got<Record<string, unknown>>>;
  listings: Map<string, Got<readonly ListedMcpTool[]>>;
}

function tryLoad(text: string, source: string): LoadedStepfile | Findings {
  try {
    return loadStepfileText(text, source);
  } catch (error) {
    return refused(error);
  }
}

function found(text: string, loaded: LoadedStepfile, fetched: Fetched, options: FindingOptions): Findings {
  const needsFetching = pinnedTools(loaded.doc).length > 0 || mcpTools(loaded.doc).length > 0;
  const warnings = needsFetching ? withFetched(text, loaded, fetched, options) : [...loaded.warnings];
  return { loaded, errors: [], warnings: warnings.filter((w) => !options.ignore?.has(w.rule ?? "")) };
}

/** The ids of the rules whose checks read the file's OpenAPI operations: what does not run against a document that is not fetched. */
export function documentRules(): string[] {
  return WARNING_RULES.filter((r) => r.readsOperations).map((r) => r.id);
}

function pinnedTools(doc: StepfileDocument): string[] {
  return Object.entries(doc.tools ?? {})
    .filter(([, tool]) => tool.openapi?.url !== undefined)
    .map(([id]) => id);
}

/** The ids of the tools that name a remote MCP server: each is listed, once, for every check that reads a listing. */
function mcpTools(doc: StepfileDocument): string[] {
  return Object.entries(doc.tools ?? {})
    .filter(([, tool]) => tool.mcp !== undefined)
    .map(([id]) => id);
}

/** The warnings again with what was fetched in place: each pinned document in its tool, each MCP listing in the facts; what was not fetched is a finding. */
function withFetched(text: string, loaded: LoadedStepfile, fetched: Fetched, options: FindingOptions): Issue[] {
  const tools: Record<string, ToolDef> = { ...loaded.doc.tools };
  const unchecked: RawIssue[] = [];
  const notFetched = (verb: string) => `was not ${verb} (${options.unfetched ?? "nothing here fetches documents"})`;
  for (const id of pinnedTools(loaded.doc)) {
    const openapi = tools[id]!.openapi!;
    const got = fetched.documents.get(id);
    if (got && "value" in got) {
      tools[id] = { ...tools[id]!, openapi: { ...openapi, document: got.value } };
      continue;
    }
    unchecked.push(pinnedDocumentUnchecked.finding(id, openapi.url!, got?.reason ?? notFetched("fetched"), documentRules()));
  }
  const listings = new Map<string, readonly ListedMcpTool[]>();
  const toJudge = mcpToolsToJudge(loaded.doc);
  for (const id of mcpTools(loaded.doc)) {
    const got = fetched.listings.get(id);
    const names = toJudge.get(id);
    if (got && "value" in got) listings.set(id, got.value);
    else if (names) unchecked.push(mcpToolsUnlisted.finding(id, tools[id]!.mcp!.url, got?.reason ?? notFetched("listed"), names));
  }
  const parsed = syntax.check(text);
  if ("issues" in parsed) return [...loaded.warnings];
  // The warning rules' findings are made again from the document with the fetched ones in place; the parser's stay as the load found them.
  const checked = new Set(WARNING_RULES.map((r) => r.id));
  const kept = loaded.warnings.filter((w) => !checked.has(w.rule ?? ""));
  const doc = { ...loaded.doc, tools };
  return byPlace([...kept, ...placeIssues([...runRules(doc, "warning", new FileFacts(doc, listings)), ...unchecked], parsed)]);
}

function refused(error: unknown): Findings {
  if (error instanceof StepfileInvalid) return { errors: byPlace(error.issues), warnings: [] };
  throw error;
}
