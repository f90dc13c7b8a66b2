// `substr`: [string, start, length?]; negative start counts from the end,
// negative length leaves that many characters off the end (JSONLogic).
import { eager } from "../operator.js";

export const substr = eager(([source, start, length]) => {
  const text = String(source);
  const from = Number(start) || 0;
  if (length === undefined || length === null) return text.substr(from);
  const count = Number(length);
  if (count < 0) {
    const rest = text.substr(from);
    return rest.substr(0, rest.length + count);
  }
  return text.substr(from, count);
});
