// `%`: a % b (JavaScript coercion).
import { eager } from "../operator.js";

export const modulo = eager(([a, b]) => (a as number) % (b as number));
