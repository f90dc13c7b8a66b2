// `>`: a > b.
import { eager } from "../operator.js";
import { greaterThan } from "./compare.js";

export const greater = eager(([a, b]) => greaterThan(a, b));
