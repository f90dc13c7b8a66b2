// `merge`: the arguments concatenated, arrays flattened one level.
import { eager } from "../operator.js";

export const merge = eager((values) => {
  const out: unknown[] = [];
  for (const value of values) {
    if (Array.isArray(value)) for (const item of value) out.push(item);
    else out.push(value);
  }
  return out;
});
