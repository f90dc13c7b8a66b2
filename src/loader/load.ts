// Loading a stepfile: parse (YAML or JSON, keeping positions), check the
// structure, the load-time rules and every expression, compile, and compute
// the identity. Any failure is one StepfileInvalid listing every issue.
import type { ErrorObject } from "ajv/dist/2020.js";
import { StepfileInvalid, StepfileUnreadable, type Issue } from "../errors.js";
import { hashJson } from "../format/identity.js";
import { pointerPath } from "../format/path.js";
import { readBounded, type BoundedRead } from "../format/read-bounded.js";
import { checkRules, type RawIssue } from "../format/rules.js";
import { checkWarnings } from "../format/warnings.js";
import { canonicalFormIssues } from "../format/canonical-form.js";
import { DEFAULT_MAX_STEPFILE_BYTES } from "../limits.js";
import { capText, LISTED_ISSUES } from "../quote.js";
import { parseSource, pathString, type ParsedSource } from "../format/source.js";
import type { StepfileDocument } from "../format/types.js";
import { compileStepfile, type CompiledStepfile } from "./compile.js";
import { checkExpressions } from "./expression-rules.js";
import { exposedOperationIssues } from "./exposed-operations.js";
import structure from "./structure-check.js";
import { stepfileWarnings } from "./warnings.js";

export interface LoadedStepfile {
  readonly doc: StepfileDocument;
  readonly identity: string;
  readonly compiled: CompiledStepfile;
  /** Where it came from, for messages: a path, a catalog name or "draft". */
  readonly source: string;
  /** Likely mistakes the format does not forbid (src/format/warnings.ts) and what would silently fail (src/loader/warnings.ts): for the author, never a refusal. */
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
  let read: BoundedRead;
  try {
    read = await readBounded(path, maxBytes);
  } catch (error) {
    throw new StepfileUnreadable(path, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
  if ("tooLarge" in read) throw new StepfileTooLarge(source, read.tooLarge);
  return loadStepfileText(read.text, source, cache);
}

/** StepfileInvalid in one line: the file was refused before parsing, so no line or path applies. */
export class StepfileTooLarge extends StepfileInvalid {
  constructor(file: string, reason: string) {
    super([{ path: "", message: reason }], file);
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
  const known = cache?.get(text);
  const hit = known && (known.kind === "vouched" ? compiledAsChecked(known, source) : recheck(text, source, known));
  if (hit) return hit;
  const loaded = fullLoad(text, source);
  cache?.set(text, { doc: loaded.doc, identity: loaded.identity, warnings: loaded.warnings });
  return loaded;
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
  const parsed = parseSource(text);
  if ("issues" in parsed || parsed.warnings !== undefined || !structure(parsed.data)) return undefined;
  const doc = parsed.data as unknown as StepfileDocument;
  if (refusingChecks(doc).some((i) => !i.warning)) return undefined;
  const identity = hashJson(doc);
  if (identity !== findings.identity) return undefined;
  return compiledAsChecked({ doc, identity, warnings: findings.warnings }, source);
}

/** Every check of a sound structure that can refuse a stepfile (some flag warnings too): the rules, the expressions, what canonical JSON cannot hold, exposed operations of inline documents. */
function refusingChecks(doc: StepfileDocument): RawIssue[] {
  return [...canonicalFormIssues(doc), ...checkRules(doc), ...checkExpressions(doc), ...exposedOperationIssues(doc)];
}

function fullLoad(text: string, source: string): LoadedStepfile {
  const parsed = parseSource(text);
  if ("issues" in parsed) throw new StepfileInvalid(parsed.issues, source);
  const fail = (raw: RawIssue[]): never => {
    throw new StepfileInvalid(positioned(raw, parsed), source);
  };
  if (!structure(parsed.data)) fail(structureIssues(structure.errors ?? []));
  const doc = parsed.data as StepfileDocument;
  const checked = [...refusingChecks(doc), ...checkWarnings(doc)];
  const ruleIssues = checked.filter((i) => !i.warning);
  if (ruleIssues.length > 0) fail(ruleIssues);
  const { compiled, issues } = compileStepfile(doc);
  if (!compiled) fail(issues);
  const warnings = [...(parsed.warnings ?? []), ...positioned(checked.filter((i) => i.warning), parsed), ...positioned(stepfileWarnings(doc), parsed)];
  return deepFreeze({ doc, identity: hashJson(doc), compiled: compiled!, source, warnings });
}

function positioned(raw: RawIssue[], parsed: ParsedSource): Issue[] {
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
    out.push({ path, message: issue.message, ...(at ? { line: at.line, column: at.column } : {}) });
  }
  return out;
}

/**
 * ajv's errors, cut down to what an author can act on: an `anyOf` over the
 * two spellings of `exposes` entries reports both branches, so keep only the
 * most specific ones.
 */
function structureIssues(errors: readonly ErrorObject[]): RawIssue[] {
  const issues: RawIssue[] = [];
  for (const e of errors) {
    if (e.keyword === "anyOf" || e.keyword === "if") continue;
    const path = pointerPath(e.instancePath);
    const p = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case "additionalProperties":
        issues.push({ path: [...path, String(p.additionalProperty)], message: `unknown field ${capText(String(p.additionalProperty))}`, atKey: true });
        break;
      case "required":
        issues.push({ path, message: `missing required field ${String(p.missingProperty)}` });
        break;
      case "const":
        issues.push({ path, message: `must be ${JSON.stringify(p.allowedValue)}` });
        break;
      case "enum":
        issues.push({ path, message: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` });
        break;
      case "propertyName":
        issues.push({ path: [...path, String(p.propertyName)], message: `${JSON.stringify(p.propertyName)} is not a valid name`, atKey: true });
        break;
      case "pattern":
        issues.push({ path, message: `must match ${String(p.pattern)}` });
        break;
      default:
        issues.push({ path, message: e.message ?? "is invalid" });
    }
  }
  // An `exposes` entry that is neither a valid name nor a valid object gets
  // errors from both branches; the string branch's "must be string" is noise
  // when the author clearly wrote an object.
  return issues.filter((i, _, all) => !(i.message === "must be string" && all.some((o) => o !== i && pathString(o.path).startsWith(pathString(i.path)))));
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) if (typeof v !== "function") deepFreeze(v);
  }
  return value;
}
