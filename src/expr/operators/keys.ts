// `keys`: an object's own keys in order; null for anything else (arrays included).
import { eager } from "../operator.js";
import { isPlainObject } from "../path.js";

export const keys = eager(([value]) => (isPlainObject(value) ? Object.keys(value) : null));
