// Every place of a submitted output a mutation can alter, with what is
// known of it: its schema, the field it sits under, whether it may be left
// out, whether its order matters.
import type { PathSegment } from "../../format/source.js";
import type { EvidenceValues } from "./evidence-values.js";
import type { Place } from "./kind.js";
import type { OrderTest } from "./order.js";
import type { Random } from "./random.js";
import type { SchemaView } from "./schema-view.js";

/** Places visited per output at most, and how deep: outputs are small, and a sample of a large one is enough. */
const MAX_PLACES = 400;
const MAX_DEPTH = 8;

export interface PlaceContext {
  evidence: EvidenceValues;
  ordered: OrderTest;
  roundTo: number | undefined;
  random: Random;
}

export function placesOf(output: unknown, schema: SchemaView, context: PlaceContext): Place[] {
  const places: Place[] = [];
  const visit = (value: unknown, view: SchemaView, path: PathSegment[], field: string | undefined, optional: boolean) => {
    if (places.length >= MAX_PLACES || path.length > MAX_DEPTH) return;
    // The whole output is not a place: replacing it is what `produces` is for.
    if (path.length > 0) {
      const ordered = Array.isArray(value) && context.ordered(path, view.schema, value);
      places.push({ output, path, value, schema: view, field, optional, ordered, roundTo: context.roundTo, evidence: context.evidence, random: context.random });
    }
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, view.child(i, item), [...path, i], field, false));
    else if (value && typeof value === "object") {
      const required = Array.isArray(view.schema.required) ? (view.schema.required as string[]) : [];
      for (const [key, item] of Object.entries(value)) visit(item, view.child(key, item), [...path, key], key, !required.includes(key));
    }
  };
  visit(output, schema, [], undefined, false);
  return places;
}
