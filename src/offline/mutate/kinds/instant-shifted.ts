// An RFC 3339 instant an hour or a day off, written as the original was:
// a local time read as UTC, a date that slipped past midnight.
import { formatTimestamp, parseTimestamp } from "../../../expr/time.js";
import { shown, type Derived, type MutationKind } from "../kind.js";

const HOUR = 3_600_000;

export const instantShifted: MutationKind = {
  name: "instant-shifted",
  derive({ value }) {
    if (typeof value !== "string") return [];
    const t = parseTimestamp(value);
    // Only UTC instants: another offset would have to be written back in that offset.
    if (t === null || !/(?:[Zz]|[+-]00:00)$/.test(value)) return [];
    const out: Derived[] = [];
    for (const [by, what] of [[HOUR, "an hour later"], [-24 * HOUR, "a day earlier"]] as const) {
      const iso = formatTimestamp(t.millis + by, true);
      if (iso === null) continue;
      // Written as the original was: its fraction digits (or none) and its zone.
      const fraction = /\.(\d+)/.exec(value)?.[1];
      const base = iso.slice(0, 19) + (fraction ? `.${(iso.slice(20, 23) + "0".repeat(fraction.length)).slice(0, fraction.length)}` : "");
      const text = base + value.slice(-(/[Zz]$/.test(value) ? 1 : 6));
      out.push({ value: text, change: `${shown(value)} -> ${shown(text)}, ${what}` });
    }
    return out;
  },
};
