// `*`: the product of the arguments read with parseFloat. No arguments gives
// null (json-logic-js throws there).
import { eager } from "../operator.js";

export const multiply = eager((values) => {
  if (values.length === 0) return null;
  let product = 1;
  for (const value of values) product *= parseFloat(String(value));
  return product;
});
