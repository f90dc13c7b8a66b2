// `-`: a - b, or -a with one argument (JavaScript coercion).
import { eager } from "../operator.js";

export const subtract = eager((values) =>
  values.length < 2 ? -(values[0] as number) : (values[0] as number) - (values[1] as number),
);
