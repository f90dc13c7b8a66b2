// An item left out: the commonest way an agent's list goes wrong.
import { shown, type MutationKind } from "../kind.js";

export const dropItem: MutationKind = {
  name: "drop-item",
  derive({ value, path }) {
    if (!Array.isArray(value) || value.length === 0) return [];
    // The first and the last item: a count or a bound usually fails on either, and two are enough to tell.
    const at = [...new Set([0, value.length - 1])];
    return at.map((i) => ({ value: value.filter((_, j) => j !== i), change: `item [${i}] ${shown(value[i])} left out`, at: [...path, i] }));
  },
};
