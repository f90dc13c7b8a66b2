// Copies schemas out of a dereferenced document into one standalone input
// schema. The refs dereferencing left behind are circular ones; a standalone
// schema cannot point into the document, so each target is copied once into
// the input schema's `$defs` and the ref is rewritten to `#/$defs/<name>`.
// Recursive types (a tree node, a comment thread) stay exact this way, where
// cutting the cycle to `{}` would let anything through at that depth.
import { ApiDocumentInvalid } from "../../errors.js";
import { isObject, resolvePointer, unescapePointerToken, type JsonObject } from "./json.js";
import { SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS, SCHEMA_SINGLE_KEYWORDS } from "../../jsonschema/schema-keywords.js";

/**
 * Keywords dropped while copying. An embedded `$id` would rebase the
 * `#/$defs/...` refs beneath it, and a schema used in two places would carry
 * the same `$id`/`$anchor` twice, which validators refuse.
 */
const DROPPED_KEYWORDS: ReadonlySet<string> = new Set(["$id", "$schema", "$anchor", "$dynamicAnchor"]);

/** Enough for large real-world APIs; stops a document whose shared schemas multiply on copying. */
export const DEFAULT_MAX_SCHEMA_NODES = 200_000;

export class SchemaExporter {
  readonly defs: JsonObject = {};
  private readonly names = new Map<string, string>();
  private nodes = 0;

  constructor(
    private readonly document: JsonObject,
    private readonly operation: string,
    private readonly maxNodes = DEFAULT_MAX_SCHEMA_NODES,
  ) {}

  /** A JSON-only copy of `schema`, its document refs moved into `defs`. */
  schema(schema: unknown): unknown {
    if (typeof schema === "boolean") return schema;
    if (!isObject(schema)) return {};
    this.count();
    const copy: JsonObject = {};
    for (const [key, value] of Object.entries(schema)) {
      if (DROPPED_KEYWORDS.has(key)) continue;
      if (key === "$ref" && typeof value === "string") copy.$ref = this.ref(value);
      else if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) copy[key] = this.map(value);
      else if ((SCHEMA_LIST_KEYWORDS.has(key) || key === "items") && Array.isArray(value)) copy[key] = value.map((s) => this.schema(s));
      else if (SCHEMA_SINGLE_KEYWORDS.has(key)) copy[key] = this.schema(value);
      else copy[key] = this.data(value);
    }
    return copy;
  }

  private map(value: JsonObject): JsonObject {
    const copy: JsonObject = {};
    for (const [name, sub] of Object.entries(value)) copy[name] = this.schema(sub);
    return copy;
  }

  private ref(ref: string): string {
    const known = this.names.get(ref);
    if (known !== undefined) return `#/$defs/${known}`;
    const target = resolvePointer(this.document, ref);
    if (target === undefined) {
      throw new ApiDocumentInvalid(`$ref "${ref}" (used by operation ${this.operation}) points at nothing in the document`, { ref, operation: this.operation });
    }
    const name = this.freshName(ref);
    this.names.set(ref, name);
    // Registered before copying, so a target that refers to itself finds its name.
    this.defs[name] = {};
    this.defs[name] = this.schema(target);
    return `#/$defs/${name}`;
  }

  /** A `$defs` key: the pointer's last token, reduced to characters that need no escaping. */
  private freshName(ref: string): string {
    const last = ref === "#" ? "root" : unescapePointerToken(decodeURIComponent(ref.slice(ref.lastIndexOf("/") + 1)));
    const base = last.replace(/[^A-Za-z0-9_.-]/g, "_") || "schema";
    let name = base;
    for (let n = 2; Object.hasOwn(this.defs, name); n++) name = `${base}_${n}`;
    return name;
  }

  /** Plain data (const, enum, default, examples, extensions) copied as is. */
  private data(value: unknown): unknown {
    if (Array.isArray(value)) {
      this.count();
      return value.map((item) => this.data(item));
    }
    if (isObject(value)) {
      this.count();
      const copy: JsonObject = {};
      for (const [key, item] of Object.entries(value)) copy[key] = this.data(item);
      return copy;
    }
    return value;
  }

  private count(): void {
    if (++this.nodes > this.maxNodes) {
      throw new ApiDocumentInvalid(`the input schema of operation ${this.operation} is larger than ${this.maxNodes} schema nodes`, {
        operation: this.operation,
      });
    }
  }
}
