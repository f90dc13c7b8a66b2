// `time_add`: [RFC 3339 timestamp, seconds] -> that instant moved by the
// seconds, in UTC, `YYYY-MM-DDTHH:MM:SSZ` (with `.sss` when the timestamp had
// a fraction or the result has milliseconds); null when the timestamp does not
// parse or the seconds are not a finite number.
import { eager } from "../operator.js";
import { formatTimestamp, parseTimestamp } from "../time.js";

export const timeAdd = eager(([timestamp, seconds]) => {
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return null;
  const parsed = parseTimestamp(timestamp);
  if (!parsed) return null;
  const millis = parsed.millis + Math.round(seconds * 1000);
  return formatTimestamp(millis, parsed.fractional || millis % 1000 !== 0);
});
