// `!`: negated JSONLogic truthiness of the first argument.
import { eager } from "../operator.js";
import { truthy } from "../truthy.js";

export const not = eager(([a]) => !truthy(a));
