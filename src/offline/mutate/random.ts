// Seeded choices, so a mutation run is the same run every time: the same
// seed, stepfile and cases give the same mutants in the same order.
// Math.random cannot be seeded, and a dependency for ten lines of
// mulberry32 (a small, well-known generator) would not pay for itself.
import { createHash } from "node:crypto";

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** One of `items`, or undefined when there are none. */
  pick<T>(items: readonly T[]): T | undefined;
  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[];
}

/**
 * @example
 * seeded(1, "release-notes", "case 1", 3).pick(["a", "b"]) // always the same one
 */
export function seeded(seed: number, ...scope: Array<string | number>): Random {
  // The scope is hashed in, so one entry's mutants do not change when another entry is added.
  let state = createHash("sha256").update(JSON.stringify([seed, ...scope])).digest().readUInt32LE(0);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: Random = {
    next,
    pick: (items) => (items.length === 0 ? undefined : items[Math.floor(next() * items.length)]),
    shuffle(items) {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    },
  };
  return random;
}
