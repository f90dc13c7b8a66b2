// `and`: the first falsy argument, else the last; stops evaluating at the first falsy one.
import { shortCircuit } from "./short-circuit.js";

export const and = shortCircuit(false);
