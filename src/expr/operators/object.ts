// `object`: [[key, value], ...] -> an object with those keys and evaluated
// values; null when a pair is not [string, value]. Object.fromEntries defines
// own properties, so a key "__proto__" is data, not a prototype change.
import { eager } from "../operator.js";

export const object = eager((pairs) => {
  const entries: [string, unknown][] = [];
  for (const pair of pairs) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string") return null;
    entries.push([pair[0], pair[1]]);
  }
  return Object.fromEntries(entries);
});
