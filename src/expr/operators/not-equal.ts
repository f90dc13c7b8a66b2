// `!=`: JavaScript loose inequality.
import { eager } from "../operator.js";

export const notEqual = eager(([a, b]) => a != b);
