// JSONLogic truthiness: JavaScript's, except that an empty array is false.
// (json-logic-engine also makes `{}` false; standard JSONLogic does not.)
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}
