// An optional field left out: whether anything notices it is gone.
import { ABSENT, shown, type MutationKind } from "../kind.js";

export const dropped: MutationKind = {
  name: "dropped",
  derive({ value, optional, path }) {
    if (!optional || typeof path[path.length - 1] !== "string") return [];
    return [{ value: ABSENT, change: `${shown(value)} left out` }];
  },
};
