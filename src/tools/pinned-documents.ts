// The OpenAPI documents a stepfile pins by url + sha256, fetched outside a
// run for `stepgate --check` and stepgate_validate (which list MCP servers
// alike, mcp-listing.ts, with these options), so their checks read the
// same operations a run would: the request preflight makes (through egress,
// no credential, to the url's host only, documentBytes in openapi-tool.ts)
// and the digest check it makes (loadDocument), with the settings the url
// names read from the environment as preflight reads them. Unlike
// preflight's, each fetch has the load bound in all, retries included
// (src/limits.ts loadFetchMs): a check is waited on by a person or a CI job.
import type { FetchPinned } from "../loader/findings.js";
import { loadFetchMs } from "../limits.js";
import type { EgressPolicy } from "../egress/index.js";
import type { StepfileDocument } from "../format/types.js";
import { settingsIn } from "../format/urls.js";
import { documentBytes } from "./openapi-tool.js";
import { loadDocument } from "./openapi/index.js";
import { fillSettings, readSettings } from "./settings.js";

export interface PinnedFetchOptions {
  /** The policy of the fetch; its allowed hosts are the url's own. */
  policy: Omit<EgressPolicy, "allowedHosts">;
  /** Where settings come from. */
  env: Readonly<Record<string, string | undefined>>;
  /** Why a url may not be fetched at all (stepgate_validate: not public https, and not a --draft-host), or undefined. */
  refuse?: (url: URL) => string | undefined;
}

export function pinnedDocuments(options: PinnedFetchOptions): FetchPinned {
  return async (toolId, doc) => {
    const openapi = doc.tools![toolId]!.openapi!;
    const url = checkedUrl(openapi.url!, doc, options);
    return loadDocument({ server: openapi.server, url, sha256: openapi.sha256! }, documentBytes(toolId, { ...options.policy, totalMs: loadFetchMs(options.policy.timeoutMs), allowedHosts: new Set() }));
  };
}

/** `url` with the settings it names filled in from the environment, as preflight fills them; throws when one is missing or the url may not be fetched. */
export function checkedUrl(url: string, doc: StepfileDocument, options: PinnedFetchOptions): string {
  const used = Object.fromEntries(Object.entries(doc.settings ?? {}).filter(([name]) => settingsIn(url).includes(name)));
  const filled = fillSettings(url, readSettings(used, { ...options.env }));
  const refused = options.refuse?.(new URL(filled));
  if (refused !== undefined) throw new Error(refused);
  return filled;
}
