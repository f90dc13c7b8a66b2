// The providers whose published API descriptions the catalog is checked
// against: one folder per provider under ./published/, each with a
// source.json (where the description comes from, which entries call it) and,
// unless it is read from an npm package, a description.json holding only the
// facts the check needs (the operations the catalog calls: paths, parameters,
// schemas; no provider prose). A provider is added by adding its folder.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Correction } from "./published.js";

const require = createRequire(import.meta.url);
const PUBLISHED = join(import.meta.dirname, "published");

export interface ProviderSource {
  /** The folder under ./published/. */
  name: string;
  /** The `openapi.server` the entries' tools name. */
  server: string;
  /** What the description is, for messages. */
  source: string;
  /** Where the kept facts come from: a public repository with path and commit, or an npm package with version. */
  repository?: string;
  npm?: string;
  path: string;
  commit?: string;
  version?: string;
  /** Headers the provider documents for every request, outside the description's parameters. */
  commonHeaders: Record<string, string>;
  /** The path part of the description's server URL, which the entries write in their paths (see check-entry.ts). */
  pathPrefix?: string;
  /**
   * Findings the provider's own reference contradicts, each list with why
   * (Sentry's description marks every field of a partial update required).
   * An entry stricter than the provider on a request (a parameter or body
   * field it requires that the description leaves optional) is listed here
   * too, with why the choice is deliberate. The test drops exactly these
   * findings, and fails on a waiver that no longer matches one, so none
   * outlives the mistake it covers; a waiver with an `entry` is for that
   * entry only (of several that call the provider).
   */
  waivers?: Array<{ entry?: string; findings: string[]; why: string }>;
  /** Schemas read as the provider's reference gives them, where the description slips (see published.ts), each with why. */
  corrections?: Correction[];
  /** Published operation ids that are not stepfile names (`^[a-zA-Z0-9_-]{1,64}$`), with the name the entries expose instead. */
  operationNames?: Record<string, string>;
  /** "proto" when the description's enums are protocol-buffer names for values the JSON API spells otherwise (see check-entry.ts). */
  enumNames?: "proto";
  /** The path part the description writes before each path the entries' server serves at its root (see check-entry.ts). */
  publishedPathPrefix?: string;
  /** Why the description declares no response bodies, when it does not (see check-entry.ts). */
  responsesUnpublished?: string;
  /** The catalog entries that call this server; the test holds the catalog to this list. */
  entries: string[];
  /** The description file to read. */
  file: string;
}

export function providerSources(): ProviderSource[] {
  return readdirSync(PUBLISHED, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const dir = join(PUBLISHED, name);
      const meta = JSON.parse(readFileSync(join(dir, "source.json"), "utf8")) as Omit<ProviderSource, "name" | "file">;
      if (!meta.commit && !meta.version) throw new Error(`${name}/source.json names neither a commit nor a version`);
      const file = meta.npm ? join(dirname(require.resolve(`${meta.npm}/package.json`)), meta.path) : join(dir, "description.json");
      if (!existsSync(file)) throw new Error(`${name}: ${file} is missing`);
      return { ...meta, name, file };
    });
}
