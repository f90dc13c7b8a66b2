// `match_all`: [string, pattern] -> capture group 1 of every match (null
// where the group took no part), or the whole match when the pattern has no
// group. RE2 semantics: linear time whatever the input. A literal pattern is
// checked with the rule (and refused there if RE2 rejects it) and compiled
// on the rule's first evaluation; a computed one is compiled on use, cached,
// and gives null if it is invalid.
import type { RE2JS } from "re2js";
import type { Evaluate, Operator } from "../operator.js";
import { checkRegex, compileRegex } from "../regex.js";

export function matchAll(regex: RE2JS, text: unknown): unknown {
  if (typeof text !== "string") return null;
  const grouped = regex.groupCount() > 0;
  const out: unknown[] = [];
  let previousEnd = -1;
  for (const match of regex.matchAll(text)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    // RE2 (and Go's FindAll) skip an empty match right after the previous match.
    if (match[0] === "" && start === previousEnd) continue;
    previousEnd = end;
    out.push(grouped ? (match[1] ?? null) : match[0]);
  }
  return out;
}

const computedPatterns = new Map<string, RE2JS | null>();
const cacheLimit = 256;

function computed(pattern: unknown): RE2JS | null {
  if (typeof pattern !== "string") return null;
  let regex = computedPatterns.get(pattern);
  if (regex !== undefined) return regex;
  try {
    regex = compileRegex(pattern);
  } catch {
    regex = null;
  }
  if (computedPatterns.size >= cacheLimit) computedPatterns.clear();
  computedPatterns.set(pattern, regex);
  return regex;
}

export const matchAllOperator: Operator = {
  compile(args, context) {
    const text = context.compile(args[0], "[0]");
    const literal = args[1];
    if (typeof literal === "string") {
      try {
        checkRegex(literal);
      } catch (error) {
        return context.fail((error as Error).message);
      }
      let regex: RE2JS | undefined;
      return function evaluateMatchAll(data, root) {
        return matchAll((regex ??= compileRegex(literal)), text(data, root));
      };
    }
    const pattern: Evaluate = context.compile(args[1], "[1]");
    return function evaluateComputedMatchAll(data, root) {
      const regex = computed(pattern(data, root));
      return regex ? matchAll(regex, text(data, root)) : null;
    };
  },
};
