// Tool URLs and credential hosts may name settings (`{jira-site}`) in their
// host or port only. These helpers split a URL as written, before settings
// are filled in, so load-time rules can check it.

export const SETTING_REF = /\{([a-z][a-z0-9-]*)\}/g;
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

export interface UrlParts {
  scheme: string;
  /** host[:port] as written, lower-cased; may contain `{setting}`. */
  authority: string;
  hostname: string;
  rest: string;
}

export function splitUrl(raw: string): UrlParts | undefined {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)(.*)$/s.exec(raw);
  if (!m) return undefined;
  // User information is never sent (egress drops it), so it is no part of the host.
  const authority = m[2]!.slice(m[2]!.lastIndexOf("@") + 1).toLowerCase();
  const hostname = authority.startsWith("[") ? authority.slice(0, authority.indexOf("]") + 1) : authority.split(":")[0]!;
  return { scheme: m[1]!.toLowerCase(), authority, hostname, rest: m[3]! };
}

/** Problems with a tool URL as written; an empty list means it is fine. */
export function urlProblems(raw: string): string[] {
  const parts = splitUrl(raw);
  if (!parts) return [`${JSON.stringify(raw)} is not an absolute URL`];
  const problems: string[] = [];
  if (parts.rest.match(SETTING_REF)) problems.push("settings may appear only in the host or port of a URL, never in its path");
  if (parts.scheme === "http") {
    if (!LOOPBACK.has(parts.hostname)) problems.push("plain http:// is allowed only for localhost, 127.0.0.1 and [::1]; use https://");
  } else if (parts.scheme !== "https") problems.push(`scheme ${parts.scheme}: is not allowed; use https://`);
  if (problems.length === 0) {
    // A stand-in value that fits where the setting stands: a port must be
    // digits, so `http://127.0.0.1:{api-port}` is checked as `...:1`.
    const filled = raw.replace(SETTING_REF, (_whole, _name: string, at: number) => (raw[at - 1] === ":" ? "1" : "setting"));
    try {
      new URL(filled);
    } catch {
      problems.push(`${JSON.stringify(raw)} is not a valid URL`);
    }
  }
  return problems;
}

/** Whether a URL as written carries user information (`user@host`). */
export function hasUserInfo(raw: string): boolean {
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*@/.test(raw);
}

export function settingsIn(text: string): string[] {
  return [...text.matchAll(SETTING_REF)].map((m) => m[1]!);
}

/** `host[:port]` of a URL with the default port dropped, as URL.host gives it. */
export function hostOf(raw: string): string | undefined {
  const parts = splitUrl(raw);
  if (!parts) return undefined;
  const defaultPort = parts.scheme === "https" ? ":443" : parts.scheme === "http" ? ":80" : "";
  return defaultPort && parts.authority.endsWith(defaultPort) ? parts.authority.slice(0, -defaultPort.length) : parts.authority;
}
