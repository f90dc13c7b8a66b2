// `min`: the smallest argument (JavaScript coercion). No arguments gives null
// rather than Infinity, which JSON cannot carry.
import { eager } from "../operator.js";

export const min = eager((values) => (values.length === 0 ? null : Math.min(...(values as number[]))));
