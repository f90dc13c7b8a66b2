// `get`: [object or array, key] -> the own value under that key, read
// literally (a key "a.b" is one key, unlike var); null when absent.
import { eager } from "../operator.js";
import { own } from "../path.js";

export function getMember(container: unknown, key: unknown): unknown {
  if (typeof container !== "object" || container === null) return null;
  if (typeof key !== "string" && typeof key !== "number") return null;
  if (Array.isArray(container) && !/^(0|[1-9]\d*)$/.test(String(key))) return null;
  return own(container, String(key)) ?? null;
}

export const get = eager(([container, key]) => getMember(container, key));
