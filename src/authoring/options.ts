// What the authoring tools need from the server that hosts them. The CLI
// fills this from its options; nothing here reads process state itself.
import type { Limits } from "../limits.js";
import type { LoadedStepfile } from "../loader/load.js";
import type { PublicUrlCheck } from "./public-url.js";

/** A bundled catalog entry: awesome-stepfiles/<category>/<name>/<name>.stepfile.yaml. */
export interface CatalogEntry {
  name: string;
  category: string;
  file: string;
}

/** What the operator let drafts use (--draft-credential, --draft-setting, --draft-host). */
export interface DraftGrants {
  credentials: ReadonlyArray<{ name: string; hosts: readonly string[] }>;
  settings: readonly string[];
  /** Non-public hosts drafts and inspection may reach, each `host[:port]` as URL.host spells it for https. */
  hosts?: readonly string[];
}

/** What stepgate_examples lists of an entry, known without loading it. */
export interface KnownExample {
  title: string;
  /** Environment variables it needs. */
  needs: string[];
  /** It has an approve gate, so a person answers through the client. */
  approval: boolean;
}

export interface AuthoringOptions {
  /** The catalog, passed in so authoring does not reach up into the CLI layer. */
  catalog: () => readonly CatalogEntry[];
  /**
   * An entry's title and needs from the catalog index the build wrote, when
   * the entry's bytes are those it indexed; undefined sends stepgate_examples
   * to load the entry instead. Loading all of them took most of a second of
   * the event loop; the index answers in a few milliseconds of file reads.
   */
  knownExample?: (entry: CatalogEntry) => Promise<KnownExample | undefined>;
  grants: DraftGrants;
  /** The file: URL of the stepfile schema this Stepgate ships, which stepgate_outline's editor line names. */
  schemaUrl?: string;
  /** Fills `{setting}` in a draft's URLs and hosts before they are checked; only granted settings are read. */
  env: Readonly<Record<string, string | undefined>>;
  /** Request limits for stepgate_inspect_api (the same as a run's). */
  requests: { userAgent: string; timeoutMs: number; maxBytes: number };
  /** The limits stepgate_test plays cases under, as `stepgate --test` does (default: the seed's). */
  caseLimits?: Pick<Limits, "callsPerStep" | "toolResultChars">;
  /** A served stepfile by tool name, for stepgate_test; the MCP factory supplies it. */
  served?: (id: string) => LoadedStepfile | undefined;
  /**
   * INTERNAL, for tests only; the CLI never sets it. Replaces the "public
   * https" check of inspection and draft rules. Tests may only touch
   * loopback, which the real check refuses by design, so without this seam
   * inspection and tool-using drafts could never be tested against real
   * local servers. It is not an option or environment variable because an
   * operator who could set it could point drafts at their own network.
   */
  publicUrl?: PublicUrlCheck;
}
