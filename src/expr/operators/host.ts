// `host`: the lower-cased host (with a port when one is given) of an absolute
// URL, else null. WHATWG URL parsing, so a default port (":443" on https) is
// dropped and internationalised names come out in punycode.
import { eager } from "../operator.js";

export function urlHost(value: unknown): string | null {
  if (typeof value !== "string") return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  return url.host === "" ? null : url.host.toLowerCase();
}

export const host = eager(([value]) => urlHost(value));
