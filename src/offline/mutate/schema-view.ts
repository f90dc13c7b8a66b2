// Following a step's `produces` schema down to one place of an output, as
// far as it can be followed without a validator: properties, items,
// prefixItems, `$ref` to the file's `$defs`, `allOf` merged, and the
// `anyOf`/`oneOf` branch whose type fits the value. Mutations read what the
// schema says of a place (its enum, format, which properties are required,
// whether its description speaks of order); whether a mutant is valid is
// still the compiled schema's to say.
type Schema = Record<string, unknown>;

export interface SchemaView {
  /** The schema of this place, `{}` when nothing is known. */
  readonly schema: Schema;
  child(key: string | number, value: unknown): SchemaView;
}

export function schemaView(root: unknown, defs: Record<string, unknown>): SchemaView {
  const resolve = (raw: unknown, value: unknown, depth = 0): Schema => {
    if (!raw || typeof raw !== "object" || depth > 16) return {};
    let s = raw as Schema;
    if (typeof s.$ref === "string") {
      const m = /^#\/\$defs\/([^/]+)$/.exec(s.$ref);
      const target = m ? ((s.$defs as Schema | undefined)?.[m[1]!] ?? defs[m[1]!]) : undefined;
      s = { ...resolve(target, value, depth + 1), ...withoutKey(s, "$ref") };
    }
    if (Array.isArray(s.allOf)) for (const part of s.allOf) s = { ...resolve(part, value, depth + 1), ...s };
    const branches = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as unknown[] | undefined;
    if (branches) {
      const fitting = branches.map((b) => resolve(b, value, depth + 1)).find((b) => fits(b, value));
      if (fitting) s = { ...fitting, ...s };
    }
    return s;
  };
  const view = (schema: Schema): SchemaView => ({
    schema,
    child(key, value) {
      if (typeof key === "number") {
        const prefix = schema.prefixItems as unknown[] | undefined;
        return view(resolve(prefix && key < prefix.length ? prefix[key] : schema.items, value));
      }
      const properties = schema.properties as Schema | undefined;
      return view(resolve(properties?.[key] ?? schema.additionalProperties, value));
    },
  });
  return view(resolve(root, undefined));
}

function withoutKey(s: Schema, key: string): Schema {
  const { [key]: _dropped, ...rest } = s;
  return rest;
}

function fits(s: Schema, value: unknown): boolean {
  const type = s.type;
  if (type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  const actual = value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value;
  return types.includes(actual) || (actual === "integer" && types.includes("number"));
}
