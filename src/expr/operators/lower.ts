// `lower`: a string lower-cased (locale-independent); null for anything else.
import { eager } from "../operator.js";

export const lower = eager(([value]) => (typeof value === "string" ? value.toLowerCase() : null));
