// `<`: a < b, or with three arguments a < b < c (exclusive between).
import { eager } from "../operator.js";
import { lessThan } from "./compare.js";

export const less = eager((values) =>
  values.length > 2 ? lessThan(values[0], values[1]) && lessThan(values[1], values[2]) : lessThan(values[0], values[1]),
);
