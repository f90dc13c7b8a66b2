// `!!`: JSONLogic truthiness of the first argument, as a boolean.
import { eager } from "../operator.js";
import { truthy } from "../truthy.js";

export const notNot = eager(([a]) => truthy(a));
