// JavaScript relational comparison, as standard JSONLogic does it (with its
// coercions: "10" > 9 is true, "b" > "a" is true).
export type Relation = (a: unknown, b: unknown) => boolean;

export const lessThan: Relation = (a, b) => (a as number) < (b as number);
export const lessOrEqual: Relation = (a, b) => (a as number) <= (b as number);
export const greaterThan: Relation = (a, b) => (a as number) > (b as number);
export const greaterOrEqual: Relation = (a, b) => (a as number) >= (b as number);
