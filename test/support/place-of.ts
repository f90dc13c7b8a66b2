// Where a finding should be, found in the text a test wrote: the line and
// column `--check` and stepgate_validate report, 1-based.

/** The line and column of `needle`'s first match at or after `from` in `text`. */
export function placeOf(text: string, needle: string, from = 0): { line: number; column: number } {
  const at = text.indexOf(needle, from);
  if (at < 0) throw new Error(`${needle} is not in the text`);
  const before = text.slice(0, at).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}
