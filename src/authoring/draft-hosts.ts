// `--draft-host <host[:port]>`: the operator's deliberate grant letting
// drafts (stepgate_try) and stepgate_inspect_api reach a named host that the
// "public https" check refuses, such as an API on this machine or on the
// operator's network. A grant names one host exactly: a granted 127.0.0.1:8080
// grants neither 127.0.0.1:8081 nor localhost:8080, and there are no ranges
// or wildcards, so drafts still reach nothing the operator did not name.
import type { PublicUrlCheck } from "./public-url.js";

const DEFAULT_PORTS: Readonly<Record<string, string>> = { "http:": "80", "https:": "443" };

/**
 * The grant's spelling as URL.host gives it for https (lower case, brackets
 * on IPv6, no :443), or undefined when it is not a host[:port].
 */
export function normalDraftHost(raw: string): string | undefined {
  if (raw.trim() === "" || /[/?#@\s]/.test(raw)) return undefined;
  try {
    const url = new URL(`https://${raw.trim()}`);
    if (url.pathname !== "/" || url.username !== "" || url.password !== "") return undefined;
    return url.host;
  } catch {
    return undefined;
  }
}

/** The host a URL reaches, with its port spelled out unless it is the https default. */
function reached(url: URL): string {
  const port = url.port || DEFAULT_PORTS[url.protocol] || "";
  return port === "443" ? url.hostname : `${url.hostname}:${port}`;
}

/**
 * The public check, except for granted hosts. A granted host is reached over
 * https, or over plain http only where the format allows it (localhost,
 * 127.0.0.1, [::1]), so a grant never downgrades a connection across a network.
 */
export function withDraftHosts(hosts: readonly string[], check: PublicUrlCheck): PublicUrlCheck {
  if (hosts.length === 0) return check;
  const granted = new Set(hosts);
  return (url) => {
    if (!granted.has(reached(url))) return check(url);
    if (url.protocol === "https:") return undefined;
    if (url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)) return undefined;
    return `it uses ${url.protocol}// (a host granted with --draft-host is reached over https://, or http:// on localhost, 127.0.0.1 and [::1])`;
  };
}

/** What a refused author can do instead; named by every UrlNotPublic and DraftRefused. */
export const WAY_FORWARD = {
  inspect:
    "For an OpenAPI document, give stepgate_inspect_api its text as document (JSON or YAML) instead of url; for any API (an MCP server too), ask the person running Stepgate to grant this host with --draft-host <host[:port]>.",
  draft:
    "Ask the person running Stepgate to grant the host with --draft-host <host[:port]> (or the credential or setting with --draft-credential / --draft-setting), or save the draft as <id>.stepfile.yaml and serve it with stepgate <path>, where these rules do not apply; stepgate_test checks its gates offline meanwhile.",
} as const;
