// `assign`: a new object with each argument's keys in turn, later overriding
// earlier; null when an argument is not an object. Built with fromEntries
// (not Object.assign) so an own "__proto__" key stays data.
import { eager } from "../operator.js";
import { isPlainObject } from "../path.js";

export const assign = eager((values) => {
  const entries: [string, unknown][] = [];
  for (const value of values) {
    if (!isPlainObject(value)) return null;
    for (const key of Object.keys(value)) entries.push([key, value[key]]);
  }
  return Object.fromEntries(entries);
});
