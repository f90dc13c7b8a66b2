// `length`: element count of an array, Unicode code point count of a string, else null.
import { eager } from "../operator.js";

export function codePointLength(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

export const length = eager(([value]) => {
  if (Array.isArray(value)) return value.length;
  if (typeof value === "string") return codePointLength(value);
  return null;
});
