// What a mutation kind is: a small named rule that, given one place in a
// submitted output (its value, its `produces` schema, the evidence values
// of the same field), derives altered values there. Wrong ones must be
// refused by some gate; equivalents are outputs a correct agent could also
// write, which no gate should refuse. Each kind is one file in kinds/,
// registered in kinds/index.ts, as the expression operators are.
import type { PathSegment } from "../../format/source.js";
import type { EvidenceValues } from "./evidence-values.js";
import type { Random } from "./random.js";
import type { SchemaView } from "./schema-view.js";

/** Stands for "the field is not there": a derived value that removes its property. */
export const ABSENT: unique symbol = Symbol("absent");

export interface Place {
  /** The whole output this place is in. */
  output: unknown;
  /** Where in the output, from its root. */
  path: PathSegment[];
  value: unknown;
  /** The `produces` schema of this place, as far as it can be followed. */
  schema: SchemaView;
  /** The property this value sits under (an array item takes its array's), for evidence of the same field. */
  field: string | undefined;
  /** Whether the property may be left out (not in its object's `required`). */
  optional: boolean;
  /** Whether the order of this array says something (the schema, a gate or the instructions say so). */
  ordered: boolean;
  /** Decimal places the step's instructions ask numbers to be rounded to, when they say so. */
  roundTo: number | undefined;
  evidence: EvidenceValues;
  random: Random;
}

export interface Derived {
  /** The new value at `at` (default: the place itself); ABSENT removes the property. */
  value: unknown;
  /** What was done, as a person reads it: `"abc" -> "ab"`. */
  change: string;
  /** The reported place when it is not the place the kind was given (an array's item). */
  at?: PathSegment[];
  /** A likely-equivalent output rather than a wrong one. */
  equivalent?: true;
}

export interface MutationKind {
  /** The name reports and accepted-survivor entries use. */
  name: string;
  derive(place: Place): Derived[];
}

/** A value as reports quote it: JSON, cut short. */
export function shown(value: unknown): string {
  if (value === ABSENT) return "(absent)";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
