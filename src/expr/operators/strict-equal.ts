// `===`: JavaScript strict equality (arrays and objects compare by identity, as in JSONLogic).
import { eager } from "../operator.js";

export const strictEqual = eager(([a, b]) => a === b);
