// Fetching a remote source description the way stepgate_inspect_api does
// (src/authoring/inspect-api.ts): public https only, judged from the URL
// (src/authoring/public-url.ts), through egress with only that host allowed
// and no credential source, so a redirect elsewhere is refused per hop. It
// happens while a document loads (serving, --from-arazzo), so the whole fetch,
// the seed's retries included, has the load bound every inspection has
// (src/authoring/inspect-policy.ts, src/limits.ts loadFetchMs): a slow or
// failing server fails the source soon, and the refusal names --source, the
// way to go on without it.
import { ToolCallFailed, UrlNotPublic } from "../errors.js";
import { inspectFetch } from "../authoring/inspect-policy.js";
import { addressGuard } from "../egress/address-guard.js";
import { publicHttpsUrl, urlProblem } from "../authoring/public-url.js";

export interface FetchLimits {
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  /** --allow-private-host: names the operator lets resolve to private addresses. */
  allowPrivateHosts?: readonly string[];
}

export function remoteSourceFetcher(requests: FetchLimits): (url: string) => Promise<Uint8Array> {
  const addresses = requests.allowPrivateHosts && requests.allowPrivateHosts.length > 0 ? addressGuard({ allowPrivateHosts: requests.allowPrivateHosts }) : undefined;
  return async (raw) => {
    const problem = urlProblem(raw, publicHttpsUrl);
    if (problem) throw new UrlNotPublic(raw, problem, "name a local copy with --source <name>=<file>");
    const url = new URL(raw);
    const fetch = inspectFetch(requests, [url.host], "fetch source description", addresses ? { addresses } : {});
    // The caller names the source and its url; only what happened is added.
    const response = await fetch(url, { headers: { accept: "application/json, application/yaml;q=0.9, text/yaml;q=0.9, */*;q=0.1" } }).catch((error: unknown) => {
      throw error instanceof ToolCallFailed ? new Error(error.what) : error;
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`it answered HTTP ${response.status}`);
    }
    return new Uint8Array(await response.arrayBuffer());
  };
}
