// `==`: JavaScript loose equality, as standard JSONLogic (1 == "1").
import { eager } from "../operator.js";

export const equal = eager(([a, b]) => a == b);
