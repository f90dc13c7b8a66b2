// `flatten`: an array flattened one level; null when not an array.
import { eager } from "../operator.js";

export const flatten = eager(([items]) => (Array.isArray(items) ? items.flat(1) : null));
