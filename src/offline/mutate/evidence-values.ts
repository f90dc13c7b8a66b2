// The values a case's run has seen, by field: the inputs, every recorded
// call's result and the outputs of steps before. "Another value of the same
// field" is read from here: the field a value came from is the place (array
// indices aside) where it appears in the evidence, so an invoice id in the
// output is swapped for another invoice's id, whatever the output calls it.
type Scalar = string | number | boolean;

/** Nodes read per case at most: a recorded result can be large, and a sample of its values is enough. */
const MAX_NODES = 50_000;

export interface EvidenceValues {
  /** Other values of the field(s) `value` appears in, else of fields named `field`; same type, first seen first. */
  othersOf(value: Scalar, field: string | undefined): Scalar[];
  /** Whether `text` is a value seen, or part of a string value seen (a quote). */
  seen(text: string): boolean;
}

export function evidenceValues(sources: ReadonlyArray<{ label: string; value: unknown }>): EvidenceValues {
  /** field id (path without indices) -> its distinct values. */
  const byField = new Map<string, Map<string, Scalar>>();
  /** key name -> field ids under that name. */
  const byName = new Map<string, Set<string>>();
  /** JSON text of a value -> field ids it appears in. */
  const whereSeen = new Map<string, Set<string>>();
  const strings: string[] = [];
  let budget = MAX_NODES;
  const walk = (node: unknown, field: string, name: string | undefined, depth: number) => {
    if (budget-- <= 0 || depth > 32) return;
    if (Array.isArray(node)) return node.forEach((item) => walk(item, `${field}[]`, name, depth + 1));
    if (node && typeof node === "object") {
      for (const [key, item] of Object.entries(node)) walk(item, `${field}.${key}`, key, depth + 1);
      return;
    }
    if (typeof node !== "string" && typeof node !== "number" && typeof node !== "boolean") return;
    const key = JSON.stringify(node);
    let values = byField.get(field);
    if (!values) byField.set(field, (values = new Map()));
    values.set(key, node);
    if (name !== undefined) {
      let ids = byName.get(name);
      if (!ids) byName.set(name, (ids = new Set()));
      ids.add(field);
    }
    let at = whereSeen.get(key);
    if (!at) whereSeen.set(key, (at = new Set()));
    at.add(field);
    if (typeof node === "string") strings.push(node);
  };
  for (const source of sources) walk(source.value, source.label, undefined, 0);

  const valuesOf = (ids: Iterable<string>, like: Scalar): Scalar[] => {
    const out = new Map<string, Scalar>();
    for (const id of ids) for (const [key, v] of byField.get(id) ?? []) if (typeof v === typeof like && v !== like) out.set(key, v);
    return [...out.values()];
  };
  return {
    othersOf(value, field) {
      const from = valuesOf(whereSeen.get(JSON.stringify(value)) ?? [], value);
      if (from.length > 0) return from;
      return field === undefined ? [] : valuesOf(byName.get(field) ?? [], value);
    },
    seen(text) {
      if (text === "") return false;
      return whereSeen.has(JSON.stringify(text)) || strings.some((s) => s.includes(text));
    },
  };
}
