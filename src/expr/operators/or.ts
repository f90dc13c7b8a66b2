// `or`: the first truthy argument, else the last; stops evaluating at the first truthy one.
import { shortCircuit } from "./short-circuit.js";

export const or = shortCircuit(true);
