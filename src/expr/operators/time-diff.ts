// `time_diff`: [later, earlier] -> seconds from earlier to later (negative if
// "later" is earlier); null when either does not parse.
import { eager } from "../operator.js";
import { parseTimestamp } from "../time.js";

export const timeDiff = eager(([later, earlier]) => {
  const end = parseTimestamp(later);
  const start = parseTimestamp(earlier);
  if (!end || !start) return null;
  // Whole seconds and fractions apart, so digits below a millisecond count.
  return end.seconds - start.seconds + (end.fraction - start.fraction);
});
