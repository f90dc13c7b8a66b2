// Small builders for the stepfile expression language (JSONLogic plus
// Stepgate's operators, stepfile format section 6), so the mapping files
// read as the expressions they make.

export type Logic = unknown;

/** A path of keys read from the data: `var` when each key is plain, else `get` steps, which read keys with dots literally. */
export function path(root: string, keys: readonly (string | number)[]): Logic {
  const plain = keys.every((k) => typeof k === "number" || (k !== "" && !k.includes(".")));
  if (plain) return { var: [root, ...keys].join(".") };
  let expr: Logic = { var: root };
  for (const key of keys) expr = { get: [expr, key] };
  return expr;
}

export const not = (expr: Logic): Logic => ({ "!": [expr] });

export function and(parts: readonly Logic[]): Logic {
  const kept = parts.filter((p) => p !== true);
  if (kept.some((p) => p === false)) return false;
  return kept.length === 0 ? true : kept.length === 1 ? kept[0] : { and: kept };
}

export function or(parts: readonly Logic[]): Logic {
  const kept = parts.filter((p) => p !== false);
  if (kept.some((p) => p === true)) return true;
  return kept.length === 0 ? false : kept.length === 1 ? kept[0] : { or: kept };
}
