// Loading a stepfile: parse (YAML or JSON, keeping positions), check the
// structure, run the error rules (src/loader/rules/), compile, and compute
// the identity. Any failure is one StepfileInvalid listing every issue.
import { StepfileInvalid, StepfileUnreadable, type Issue } from "../errors.js";
import { hashJson } from "../format/identity.js";
import { readBounded, type BoundedRead } from "../format/read-bounded.js";
import { DEFAULT_MAX_STEPFILE_BYTES } from "../limits.js";
import { LISTED_ISSUES } from "../quote.js";
import { pathString, type ParsedSource } from "../format/source.js";
import type { StepfileDocument } from "../format/types.js";
import { compileStepfile, type CompiledStepfile } from "./compile.js";
import { FileFacts } from "./rules/facts.js";
import { fileSize } from "./rules/file-size.js";
import type { RawIssue } from "./raw-issue.js";
import { runRules } from "./rules/run.js";
import { schema } from "./rules/schema.js";
import { structure } from "./rules/structure.js";
import { syntax } from "./rules/syntax.js";

export interface LoadedStepfile {
  readonly doc: StepfileDocument;
  readonly identity: string;
  readonly compiled: CompiledStepfile;
  /** Where it came from, for messages: a path, a catalog name or "draft". */
  readonly source: string;
  /** Likely mistakes the format does not forbid and what would silently fail (the rules of src/loader/rules/), sorted by place: for the author, never a refusal. */
  readonly warnings: readonly Issue[];
}

/**
 * What a load established that is plain data: the document, its identity
 * and its warnings, and (by being there at all) that every check passed.
 */
export interface CheckedStepfile {
  readonly doc: StepfileDocument;
  readonly identity: string;
  readonly warnings: readonly Issue[];
}

/**
 * What a load cache hands back for a text. `findings`: only what a full
 * load found that cannot change what runs (the identity it computed and
 * its warnings, with their positions); the document is read again from the
 * text, every check that can refuse runs again, and the identity must come
 * out the same, so an entry anyone could have written decides nothing.
 * `vouched`: a whole CheckedStepfile authenticated by the code itself (the
 * build's own entries, whose digests are in the bundle), as trusted as the
 * bundle; only the compile runs. See docs/architecture.md, "The load cache".
 */
export type CachedLoad =
  | { readonly kind: "findings"; readonly identity: string; readonly warnings: readonly Issue[] }
  | ({ readonly kind: "vouched" } & CheckedStepfile);

/**
 * Where earlier loads of the same text by the same code are kept (the CLI's
 * on-disk cache, src/cli/load-cache.ts). `get` returns only what was kept
 * for exactly this text; anything else is a miss.
 */
export interface LoadCache {
  get(text: string): CachedLoad | undefined;
  set(text: string, checked: CheckedStepfile): void;
}

export async function loadStepfileFile(path: string, source = path, maxBytes = DEFAULT_MAX_STEPFILE_BYTES, cache?: LoadCache): Promise<LoadedStepfile> {
  return loadStepfileText(await readStepfileText(path, source, maxBytes), source, cache);
}

/** A stepfile's text; StepfileUnreadable when it cannot be read, StepfileTooLarge past `maxBytes`. */
export async function readStepfileText(path: string, source = path, maxBytes = DEFAULT_MAX_STEPFILE_BYTES): Promise<string> {
  let read: BoundedRead;
  try {
    read = await readBounded(path, maxBytes);
  } catch (error) {
    throw new StepfileUnreadable(path, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
  if ("tooLarge" in read) throw new StepfileTooLarge(source, read.tooLarge);
  return read.text;
}

/** StepfileInvalid in one line: the file was refused before parsing, so no line or path applies. */
export class StepfileTooLarge extends StepfileInvalid {
  constructor(file: string, reason: string) {
    super([fileSize.issue(reason)], file);
    this.message = `${file} ${reason}`;
  }
}

/**
 * Load a stepfile's text. With a cache, a text this code loaded before
 * skips what a full load does only for the author (the positioned parse
 * that places warnings, the load warnings, compiling schemas and
 * expressions before their first use): its warnings come from the cache,
 * and what runs always comes from the text (see CachedLoad). Anything else,
 * and any hit that does not hold up, is loaded in full and what it
 * established is kept for next time. A refused text is never kept, so its
 * issues always come from the full load.
 */
export function loadStepfileText(text: string, source: string, cache?: LoadCache): LoadedStepfile {
  const known = knownLoad(text, source, cache);
  if (known) return known;
  const { checked, warnings } = fullLoad(text, source);
  const loaded = withIdentity({ ...checked, warnings: deepFreeze(warnings()) });
  cache?.set(text, { doc: loaded.doc, identity: loaded.identity, warnings: loaded.warnings });
  return loaded;
}

/**
 * A load whose warnings wait (serving: src/cli/serve.ts answers the first
 * tools/list before it finds them; every refusal is still found first).
 * `loaded.warnings` is empty until then, whatever `finish` gives; a text
 * loaded in full is kept in the cache when `finish` runs.
 */
export interface DeferredLoad {
  loaded: LoadedStepfile;
  /** The warnings, found on the first call (the rules pass), and the load kept in the cache. */
  finish(): readonly Issue[];
}

export function loadStepfileTextDeferred(text: string, source: string, cache?: LoadCache): DeferredLoad {
  const known = knownLoad(text, source, cache);
  if (known) return { loaded: known, finish: () => known.warnings };
  const { checked, warnings } = fullLoad(text, source);
  // Frozen deep when finished: freezing a file's every object was about a
  // twenty-fifth of a first launch of 28 user stepfiles (issue 27 item 7),
  // and until the first answer is out only the loader and the tools/list
  // answer read them.
  const loaded = withIdentity({ ...checked, warnings: deepFreeze([] as Issue[]) }, false);
  let found: readonly Issue[] | undefined;
  const finish = () => {
    if (found) return found;
    frozenDeep(loaded);
    found = deepFreeze(warnings());
    cache?.set(text, { doc: loaded.doc, identity: loaded.identity, warnings: found });
    return found;
  };
  return { loaded, finish };
}

export async function loadStepfileFileDeferred(path: string, source = path, maxBytes = DEFAULT_MAX_STEPFILE_BYTES, cache?: LoadCache): Promise<DeferredLoad> {
  return loadStepfileTextDeferred(await readStepfileText(path, source, maxBytes), source, cache);
}

/**
 * A cache hit, compiled; undefined for anything else. What runs always
 * comes from the text (see CachedLoad): a `findings` entry gives only the
 * identity to compare and the warnings with their places.
 */
function knownLoad(text: string, source: string, cache: LoadCache | undefined): LoadedStepfile | undefined {
  const known = cache?.get(text);
  if (!known) return undefined;
  return known.kind === "vouched" ? compiledAsChecked(known, source) : recheck(text, source, known);
}

/** A checked document compiled with every schema, expression and template compiled on first use; undefined when it no longer compiles (then it was not kept by this code). */
function compiledAsChecked(checked: CheckedStepfile, source: string): LoadedStepfile | undefined {
  const { compiled } = compileStepfile(checked.doc, { checked: true });
  return compiled ? deepFreeze({ doc: checked.doc, identity: checked.identity, compiled, source, warnings: checked.warnings }) : undefined;
}

/**
 * A cache hit held to the text: the document as the text reads (the fast
 * reader, no positions), every check that can refuse a stepfile run again,
 * and the identity computed again and compared with the one the full load
 * kept (which also holds the fast reader to the positioned parse). Undefined
 * when anything differs: the caller loads in full.
 */
function recheck(text: string, source: string, findings: { identity: string; warnings: readonly Issue[] }): LoadedStepfile | undefined {
  const parsed = syntax.check(text);
  if ("issues" in parsed || parsed.warnings !== undefined || structure.check(parsed.data).length > 0) return undefined;
  const doc = parsed.data as unknown as StepfileDocument;
  if (runRules(doc, "error").length > 0) return undefined;
  const identity = hashJson(doc);
  if (identity !== findings.identity) return undefined;
  return compiledAsChecked({ doc, identity, warnings: findings.warnings }, source);
}

/**
 * Every refusal found (thrown as one StepfileInvalid): the parse, the
 * structure, the error rules, the compile. The identity is computed when
 * first read (see withIdentity); the warning rules run when asked for, with
 * the facts the error rules computed.
 */
function fullLoad(text: string, source: string): { checked: Omit<LoadedStepfile, "warnings" | "identity">; warnings: () => Issue[] } {
  const parsed = syntax.check(text);
  if ("issues" in parsed) throw new StepfileInvalid(parsed.issues, source);
  const fail = (raw: RawIssue[]): never => {
    throw new StepfileInvalid(placeIssues(raw, parsed), source);
  };
  const shape = structure.check(parsed.data);
  if (shape.length > 0) fail(shape);
  const doc = parsed.data as StepfileDocument;
  const facts = new FileFacts(doc);
  const refused = runRules(doc, "error", facts);
  if (refused.length > 0) fail(refused);
  const { compiled, issues } = schema.check(doc);
  if (!compiled) fail(issues);
  return { checked: { doc, compiled: compiled!, source }, warnings: () => placedWarnings(runRules(doc, "warning", facts), parsed) };
}

/**
 * A fully loaded stepfile, frozen (`freeze`: its document and compile at once; a
 * deferred load freezes them when it finishes), whose identity is hashed when first read.
 * Hashing cannot refuse (the canonical-form rule has found everything
 * canonical JSON cannot hold), and serving's first tools/list answer needs
 * no identity, so a first launch hashes each file after that answer (when
 * its load cache entry is kept) or at its first run, not before it (issue
 * 27 item 7). A cache hit's identity is hashed at once: there it is a check.
 */
function withIdentity(fields: Omit<LoadedStepfile, "identity">, freeze = true): LoadedStepfile {
  if (freeze) frozenDeep(fields);
  let identity: string | undefined;
  return Object.freeze(Object.defineProperty({ ...fields } as LoadedStepfile, "identity", { enumerable: true, get: () => (identity ??= hashJson(fields.doc)) }));
}

/** The document and what it compiled to, frozen to the last object. */
function frozenDeep(fields: Pick<LoadedStepfile, "doc" | "compiled">): void {
  deepFreeze(fields.doc);
  deepFreeze(fields.compiled);
}

/** Each issue found once, with its line and column (the first LISTED_ISSUES of them). */
export function placeIssues(raw: RawIssue[], parsed: ParsedSource): Issue[] {
  const seen = new Set<string>();
  const out: Issue[] = [];
  for (const issue of raw) {
    const path = pathString(issue.path);
    const key = `${path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // Only listed issues need a line; locating is a walk of the tree, and a
    // file with 100,000 unknown keys would otherwise take minutes.
    const at = out.length < LISTED_ISSUES ? parsed.locate(issue.path, issue.atKey) : undefined;
    out.push({ path, message: issue.message, ...(at ? { line: at.line, column: at.column } : {}), ...(issue.rule ? { rule: issue.rule } : {}) });
  }
  return out;
}

/** A file's warnings, placed and sorted: the parser's, then `raw` (each found once), by line and column. */
export function placedWarnings(raw: RawIssue[], parsed: ParsedSource): Issue[] {
  return byPlace([...(parsed.warnings ?? []), ...placeIssues(raw, parsed)]);
}

/** Findings by line and column, as a linter lists them; one without a place keeps its order, after those with one. */
export function byPlace(issues: Issue[]): Issue[] {
  const at = (i: Issue) => (i.line === undefined ? Infinity : i.line * 1e6 + (i.column ?? 0));
  return issues.map((issue, index) => ({ issue, index })).sort((a, b) => at(a.issue) - at(b.issue) || a.index - b.index).map((e) => e.issue);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) if (typeof v !== "function") deepFreeze(v);
  }
  return value;
}
