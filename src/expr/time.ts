// RFC 3339 timestamps for time_add and time_diff. Date.parse is not used: it
// accepts many non-RFC forms and rolls impossible dates over (Feb 29 of a
// non-leap year becomes Mar 1), where the spec wants null.

export interface Timestamp {
  /** Milliseconds since the epoch, UTC; sub-millisecond digits are dropped. */
  millis: number;
  /** Whether the text had a fractional second. */
  fractional: boolean;
  /** Whole seconds since the epoch, UTC, and the fraction as written (0 <= fraction < 1), for exact differences. */
  seconds: number;
  fraction: number;
}

const shape = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Parse an RFC 3339 date-time; null when it is not one. A leap second (:60)
 * is refused: JavaScript time has no room for it.
 */
export function parseTimestamp(text: unknown): Timestamp | null {
  if (typeof text !== "string") return null;
  const m = shape.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offset = 0;
  if (m[9]) {
    const offsetHours = Number(m[10]);
    const offsetMinutes = Number(m[11]);
    if (offsetHours > 23 || offsetMinutes > 59) return null;
    offset = (m[9] === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  }
  const fraction = m[7];
  const millisPart = fraction ? Number(fraction.padEnd(3, "0").slice(0, 3)) : 0;
  const date = new Date(0);
  // setUTCFullYear, because Date.UTC maps years 0-99 to 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millisPart);
  const millis = date.getTime() - offset * 60_000;
  return { millis, fractional: fraction !== undefined, seconds: Math.floor(millis / 1000), fraction: fraction ? Number(`0.${fraction}`) : 0 };
}

/** `YYYY-MM-DDTHH:MM:SS(.sss)Z`, or null outside years 0000-9999. */
export function formatTimestamp(millis: number, withMillis: boolean): string | null {
  const date = new Date(millis);
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < 0 || year > 9999) return null;
  const iso = date.toISOString();
  return withMillis ? iso : `${iso.slice(0, 19)}Z`;
}
