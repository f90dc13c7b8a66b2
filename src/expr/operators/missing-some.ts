// `missing_some`: [need, paths] -> [] when at least `need` paths are present, else the missing ones.
import { asConversionError, eager, type Operator } from "../operator.js";
import { missingPaths } from "./missing.js";

export const missingSome: Operator = {
  compile(args, context) {
    const list = eager((values) => values).compile(args, context);
    return function evaluateMissingSome(data, root) {
      const [need, paths] = list(data, root) as unknown[];
      const options = Array.isArray(paths) ? paths : [];
      const absent = missingPaths(data, options);
      let least: number;
      try {
        least = Number(need);
      } catch (error) {
        throw asConversionError(error);
      }
      return options.length - absent.length >= least ? [] : absent;
    };
  },
};
