// "did you mean ...": the names nearest a mistyped one. Written here because
// it is one small function (optimal string alignment distance) and no
// dependency we already carry offers it.

/** Names within a small edit distance of `typed` (or that contain it, or it them), nearest first, at most three. */
export function closestNames(typed: string, names: readonly string[]): string[] {
  const wanted = typed.toLowerCase();
  // Allow roughly one slip per four characters, at least one, at most three.
  const limit = Math.min(3, Math.max(1, Math.floor(wanted.length / 4)));
  return names
    .map((name) => ({ name, distance: name.includes(wanted) || (wanted.includes(name) && name.length >= 4) ? 0 : editDistance(wanted, name) }))
    .filter((n) => n.distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map((n) => n.name);
}

/** Insertions, deletions, substitutions and swaps of two neighbours, each costing one. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}
