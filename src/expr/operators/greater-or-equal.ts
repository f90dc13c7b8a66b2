// `>=`: a >= b.
import { eager } from "../operator.js";
import { greaterOrEqual as atLeast } from "./compare.js";

export const greaterOrEqual = eager(([a, b]) => atLeast(a, b));
