// The decimal places a step's instructions ask numbers to be rounded to
// ("rounded to 3 decimal places", "round to two decimals", "to the nearest
// cent"), so a rounded number counts as an equivalent output.
const WORDS: Record<string, number> = { zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
const PLACES = /\bround(?:ed|ing|s)?\b[^.\n]{0,40}?\b(\d|zero|one|two|three|four|five|six)\s+(?:decimal\s+)?(?:places?|decimals?|digits?)/i;

export function roundingAsked(instructions: string | undefined): number | undefined {
  if (!instructions) return undefined;
  const m = PLACES.exec(instructions);
  if (m) return /^\d$/.test(m[1]!) ? Number(m[1]) : WORDS[m[1]!.toLowerCase()];
  return /\bnearest cent\b/i.test(instructions) ? 2 : undefined;
}
