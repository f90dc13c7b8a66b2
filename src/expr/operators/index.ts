// The one table of operators: the standard JSONLogic set (spec section 6)
// followed by Stepgate's own. Nothing outside this table is an operator, so
// json-logic-engine extras such as `val`, `??` or `throw` are refused.
import type { Operator } from "../operator.js";
import { add } from "./add.js";
import { all } from "./all.js";
import { and } from "./and.js";
import { assign } from "./assign.js";
import { cat } from "./cat.js";
import { difference } from "./difference.js";
import { divide } from "./divide.js";
import { equal } from "./equal.js";
import { filter } from "./filter.js";
import { flatten } from "./flatten.js";
import { get } from "./get.js";
import { greater } from "./greater.js";
import { greaterOrEqual } from "./greater-or-equal.js";
import { host } from "./host.js";
import { ifThenElse } from "./if.js";
import { inside } from "./in.js";
import { join } from "./join.js";
import { keys } from "./keys.js";
import { length } from "./length.js";
import { less } from "./less.js";
import { lessOrEqual } from "./less-or-equal.js";
import { log } from "./log.js";
import { lower } from "./lower.js";
import { map } from "./map.js";
import { matchAllOperator } from "./match-all.js";
import { max } from "./max.js";
import { merge } from "./merge.js";
import { min } from "./min.js";
import { missing } from "./missing.js";
import { missingSome } from "./missing-some.js";
import { modulo } from "./modulo.js";
import { multiply } from "./multiply.js";
import { none } from "./none.js";
import { not } from "./not.js";
import { notEqual } from "./not-equal.js";
import { notNot } from "./not-not.js";
import { object } from "./object.js";
import { or } from "./or.js";
import { reduce } from "./reduce.js";
import { results } from "./results.js";
import { some } from "./some.js";
import { sortBy } from "./sort-by.js";
import { strictEqual } from "./strict-equal.js";
import { strictNotEqual } from "./strict-not-equal.js";
import { subset } from "./subset.js";
import { substr } from "./substr.js";
import { subtract } from "./subtract.js";
import { timeAdd } from "./time-add.js";
import { timeDiff } from "./time-diff.js";
import { unique } from "./unique.js";
import { variable } from "./var.js";

export const operators: ReadonlyMap<string, Operator> = new Map<string, Operator>([
  ["var", variable],
  ["missing", missing],
  ["missing_some", missingSome],
  ["if", ifThenElse],
  ["==", equal],
  ["===", strictEqual],
  ["!=", notEqual],
  ["!==", strictNotEqual],
  ["!", not],
  ["!!", notNot],
  ["or", or],
  ["and", and],
  [">", greater],
  [">=", greaterOrEqual],
  ["<", less],
  ["<=", lessOrEqual],
  ["max", max],
  ["min", min],
  ["+", add],
  ["-", subtract],
  ["*", multiply],
  ["/", divide],
  ["%", modulo],
  ["map", map],
  ["filter", filter],
  ["reduce", reduce],
  ["all", all],
  ["some", some],
  ["none", none],
  ["merge", merge],
  ["in", inside],
  ["cat", cat],
  ["substr", substr],
  ["log", log],

  ["results", results],
  ["object", object],
  ["assign", assign],
  ["length", length],
  ["unique", unique],
  ["subset", subset],
  ["difference", difference],
  ["keys", keys],
  ["lower", lower],
  ["get", get],
  ["join", join],
  ["flatten", flatten],
  ["host", host],
  ["match_all", matchAllOperator],
  ["sort_by", sortBy],
  ["time_add", timeAdd],
  ["time_diff", timeDiff],
]);

export const operatorNames: readonly string[] = [...operators.keys()];

export function isOperator(name: string): boolean {
  return operators.has(name);
}
