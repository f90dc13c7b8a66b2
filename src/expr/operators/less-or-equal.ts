// `<=`: a <= b, or with three arguments a <= b <= c (inclusive between).
import { eager } from "../operator.js";
import { lessOrEqual as atMost } from "./compare.js";

export const lessOrEqual = eager((values) =>
  values.length > 2 ? atMost(values[0], values[1]) && atMost(values[1], values[2]) : atMost(values[0], values[1]),
);
