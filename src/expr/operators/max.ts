// `max`: the largest argument (JavaScript coercion). No arguments gives null
// rather than -Infinity, which JSON cannot carry.
import { eager } from "../operator.js";

export const max = eager((values) => (values.length === 0 ? null : Math.max(...(values as number[]))));
