// A protocol-buffer API description (a .proto file whose service methods
// carry google.api.http options, as deps.dev's api.proto does) in OpenAPI
// 3's shape, for keep.ts: each method becomes the operation at its http
// path, named for the method; path variables and field names take their
// proto3 JSON names (lowerCamelCase, as the JSON API sends them and as
// grpc-gateway's OpenAPI generator writes them); each message becomes a
// schema, each enum a string enum of its value names. Scalars follow the
// proto3 JSON mapping: 64-bit integers are strings, float and double are
// numbers, google.protobuf.Timestamp is an RFC 3339 string.
// Hand-written: the parser reads only what such a file declares (messages,
// nested messages and enums, repeated and map fields, oneofs, services),
// which is all the conversion needs, so no protobuf library is brought in
// for a one-time conversion.
import type { JsonObject } from "../../../src/format/json-pointer.js";

// proto3's JSON mapping: 32-bit integers are numbers, 64-bit ones strings.
const INT32 = ["int32", "sint32", "sfixed32", "uint32", "fixed32"];
const INT64 = ["int64", "sint64", "sfixed64", "uint64", "fixed64"];
const SCALARS: Record<string, JsonObject> = {
  ...Object.fromEntries(INT32.map((t) => [t, { type: "integer", format: "int32" }])),
  ...Object.fromEntries(INT64.map((t) => [t, { type: "string", format: "int64" }])),
  string: { type: "string" },
  bytes: { type: "string", format: "byte" },
  bool: { type: "boolean" },
  float: { type: "number", format: "float" },
  double: { type: "number", format: "double" },
  "google.protobuf.Timestamp": { type: "string", format: "date-time" },
  "google.protobuf.Duration": { type: "string" },
};

/** proto3's JSON name of a field: snake_case to lowerCamelCase. */
export const jsonName = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

interface Field {
  name: string;
  type: string;
  repeated: boolean;
  map?: [string, string];
}
interface Message {
  fields: Field[];
}

function tokens(text: string): string[] {
  const bare = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");
  return bare.match(/"(?:[^"\\]|\\.)*"|[A-Za-z_][\w.]*|\d+|[{}()[\];=<>,:]/g) ?? [];
}

export function fromProto(text: string): JsonObject {
  const t = tokens(text);
  const messages = new Map<string, Message>();
  const enums = new Map<string, string[]>();
  const rpcs: Array<{ name: string; input: string; output: string; method: string; path: string }> = [];
  let i = 0;
  const skipStatement = (): void => {
    let depth = 0;
    for (; i < t.length; i++) {
      if (t[i] === "{") depth++;
      if (t[i] === "}") depth--;
      if ((t[i] === ";" && depth === 0) || (t[i] === "}" && depth === 0)) {
        i++;
        return;
      }
    }
  };
  const parseEnum = (full: string): void => {
    i++; // {
    const values: string[] = [];
    while (t[i] !== "}") {
      if (t[i] === "option" || t[i] === "reserved") skipStatement();
      else {
        values.push(t[i]!);
        while (t[i] !== ";") i++;
        i++;
      }
    }
    i++;
    enums.set(full, values);
  };
  const parseMessage = (full: string): void => {
    i++; // {
    const fields: Field[] = [];
    while (t[i] !== "}") {
      const word = t[i]!;
      if (word === "message") {
        i += 2;
        parseMessage(`${full}.${t[i - 1]!}`);
      } else if (word === "enum") {
        i += 2;
        parseEnum(`${full}.${t[i - 1]!}`);
      } else if (word === "option" || word === "reserved" || word === "extensions") skipStatement();
      else if (word === "oneof") {
        i += 3; // oneof name {
        while (t[i] !== "}") {
          fields.push({ type: t[i]!, name: t[i + 1]!, repeated: false });
          while (t[i] !== ";") i++;
          i++;
        }
        i++;
      } else if (word === "map") {
        // map < K , V > name = N ;
        fields.push({ type: "map", map: [t[i + 2]!, t[i + 4]!], name: t[i + 6]!, repeated: false });
        while (t[i] !== ";") i++;
        i++;
      } else {
        const repeated = word === "repeated";
        if (repeated || word === "optional") i++;
        fields.push({ type: t[i]!, name: t[i + 1]!, repeated });
        while (t[i] !== ";") i++;
        i++;
      }
    }
    i++;
    messages.set(full, { fields });
  };
  while (i < t.length) {
    const word = t[i]!;
    if (word === "message") {
      i += 2;
      parseMessage(t[i - 1]!);
    } else if (word === "enum") {
      i += 2;
      parseEnum(t[i - 1]!);
    } else if (word === "service") {
      i += 3; // service Name {
      while (t[i] !== "}") {
        if (t[i] !== "rpc") {
          skipStatement();
          continue;
        }
        // rpc Name ( In ) returns ( Out ) { option (google.api.http) = { get: "..." }; }
        const name = t[i + 1]!;
        const input = t[i + 3]!;
        const output = t[i + 7]!;
        i += 9;
        let method = "";
        let path = "";
        let depth = 0;
        for (; i < t.length; i++) {
          if (t[i] === "{") depth++;
          if (t[i] === "}") depth--;
          if (/^(get|put|post|delete|patch)$/.test(t[i]!) && t[i + 1] === ":") {
            method = t[i]!;
            path = JSON.parse(t[i + 2]!) as string;
          }
          if (depth === 0 && (t[i] === "}" || t[i] === ";")) break;
        }
        i++;
        if (method) rpcs.push({ name, input, output, method, path });
      }
      i++;
    } else skipStatement();
  }

  /** A type name as written inside `scope`, resolved the way protoc does: innermost scope first. */
  const resolve = (type: string, scope: string): string => {
    const parts = scope.split(".");
    for (let n = parts.length; n >= 0; n--) {
      const candidate = [...parts.slice(0, n), type].join(".");
      if (messages.has(candidate) || enums.has(candidate)) return candidate;
    }
    return type;
  };
  const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
  const fieldSchema = (type: string, scope: string): JsonObject => {
    if (SCALARS[type]) return { ...SCALARS[type] };
    const full = resolve(type, scope);
    if (!messages.has(full) && !enums.has(full)) throw new Error(`unknown type ${type} in ${scope}`);
    return ref(full);
  };
  const schemas: JsonObject = {};
  for (const [name, values] of enums) schemas[name] = { type: "string", enum: values };
  for (const [name, message] of messages) {
    const properties: JsonObject = {};
    for (const f of message.fields) {
      const one = f.map ? { type: "object", additionalProperties: fieldSchema(f.map[1], name) } : fieldSchema(f.type, name);
      properties[jsonName(f.name)] = f.repeated ? { type: "array", items: one } : one;
    }
    schemas[name] = { type: "object", properties };
  }
  const paths: JsonObject = {};
  for (const rpc of rpcs) {
    const parameters = [...rpc.path.matchAll(/\{([\w.]+)\}/g)].map((m) => {
      const steps = m[1]!.split(".");
      // The variable's schema is that of the request field it names (package_key.system: System).
      let message = resolve(rpc.input, "");
      let schema: JsonObject = { type: "string" };
      for (const step of steps) {
        const field = messages.get(message)?.fields.find((f) => f.name === step);
        if (!field) throw new Error(`${rpc.name}: ${m[1]!} is not a field of ${rpc.input}`);
        const full = resolve(field.type, message);
        if (messages.has(full)) message = full;
        else schema = enums.has(full) ? ref(full) : fieldSchema(field.type, message);
      }
      return { name: steps.map(jsonName).join("."), in: "path", required: true, schema };
    });
    const path = rpc.path.replace(/\{([\w.]+)\}/g, (_, v: string) => `{${v.split(".").map(jsonName).join(".")}}`);
    paths[path] = {
      ...((paths[path] as JsonObject | undefined) ?? {}),
      [rpc.method]: { operationId: rpc.name, parameters, responses: { "200": { content: { "application/json": { schema: ref(resolve(rpc.output, "")) } } } } },
    };
  }
  return { openapi: "3.0.0", paths, components: { schemas } };
}
