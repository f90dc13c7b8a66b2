// `!==`: JavaScript strict inequality.
import { eager } from "../operator.js";

export const strictNotEqual = eager(([a, b]) => a !== b);
