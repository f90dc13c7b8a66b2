// A WADL description (Web Application Description Language, as the USGS
// FDSN event service publishes its query's parameters) in OpenAPI 3's
// shape, for keep.ts: each <resource> becomes the path "/" + its path under
// the <resources> base (the entries' server, or a provider's pathPrefix),
// each <method> the operation named by its id, each <param> a parameter
// (style query, header or template, a template one in the path and
// required), its XML Schema type as the JSON type (xs:double a number,
// xs:integer an integer, xs:boolean a boolean, xs:dateTime a date-time
// string, anything else a string), its <option>s as a string enum, its
// default in that type, and required="true" kept. A response's
// <representation>s become its media types, with no schema: a WADL names
// an answer's media type, not its JSON shape.
// Hand-written: the parser reads only the elements and attributes above,
// which is all a WADL of query parameters declares, so no XML library is
// brought in for a one-time conversion.
import type { JsonObject } from "../../../src/format/json-pointer.js";

/** The attributes of an element's opening tag. */
function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:.-]+)="([^"]*)"/g)) out[m[1]!] = m[2]!.replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"');
  return out;
}

/** The elements named `name` directly or deeper in `xml`, each with its attributes and inner text (empty for a self-closed one). */
function elements(xml: string, name: string): Array<{ attrs: Record<string, string>; inner: string }> {
  const found: Array<{ attrs: Record<string, string>; inner: string }> = [];
  const open = new RegExp(`<${name}\\b([^>]*?)(/?)>`, "g");
  let m: RegExpExecArray | null;
  while ((m = open.exec(xml)) !== null) {
    if (m[2] === "/") {
      found.push({ attrs: attributes(m[1]!), inner: "" });
      continue;
    }
    // The matching close tag, counting nested elements of the same name.
    const tags = new RegExp(`<(/?)${name}\\b[^>]*?(/?)>`, "g");
    tags.lastIndex = open.lastIndex;
    let depth = 1;
    let t: RegExpExecArray | null;
    while (depth > 0 && (t = tags.exec(xml)) !== null) {
      if (t[1] === "/") depth--;
      else if (t[2] !== "/") depth++;
    }
    const end = depth === 0 ? tags.lastIndex : xml.length;
    const inner = xml.slice(open.lastIndex, end).replace(new RegExp(`</${name}>$`), "");
    found.push({ attrs: attributes(m[1]!), inner });
    open.lastIndex = end;
  }
  return found;
}

const TYPES: Record<string, JsonObject> = {
  "xs:double": { type: "number" },
  "xs:float": { type: "number" },
  "xs:decimal": { type: "number" },
  "xs:integer": { type: "integer" },
  "xs:int": { type: "integer" },
  "xs:long": { type: "integer" },
  "xs:boolean": { type: "boolean" },
  "xs:dateTime": { type: "string", format: "date-time" },
  "xs:date": { type: "string", format: "date" },
};

function typed(value: string, schema: JsonObject): unknown {
  if (schema.type === "number" || schema.type === "integer") return Number(value);
  if (schema.type === "boolean") return value === "true";
  return value;
}

const STYLES: Record<string, string> = { query: "query", header: "header", template: "path" };

export function fromWadl(xml: string): JsonObject {
  const text = xml.replace(/<!--[\s\S]*?-->/g, "").replace(/<\?[\s\S]*?\?>/g, "");
  const paths: JsonObject = {};
  const walk = (scope: string, prefix: string): void => {
    // elements() gives this level's resources only; a nested one is reached by walking into its parent.
    for (const resource of elements(scope, "resource")) {
      const path = `${prefix}/${resource.attrs.path!.replace(/^\//, "")}`;
      const nested = elements(resource.inner, "resource").length > 0;
      const own = nested ? resource.inner.slice(0, resource.inner.search(/<resource\b/)) : resource.inner;
      const item: JsonObject = {};
      for (const method of elements(own, "method")) {
        const request = elements(method.inner, "request")[0]?.inner ?? "";
        const parameters = elements(request, "param").map((p) => {
          const options = elements(p.inner, "option").map((o) => o.attrs.value!);
          const schema: JsonObject = options.length > 0 ? { type: "string", enum: options } : { ...(TYPES[p.attrs.type ?? ""] ?? { type: "string" }) };
          if (p.attrs.default !== undefined) schema.default = typed(p.attrs.default, schema);
          const where = STYLES[p.attrs.style ?? "query"] ?? "query";
          const out: JsonObject = { name: p.attrs.name, in: where, schema };
          if (where === "path" || p.attrs.required === "true") out.required = true;
          return out;
        });
        const responses: JsonObject = {};
        for (const response of elements(method.inner, "response")) {
          const content = Object.fromEntries(elements(response.inner, "representation").map((r) => [r.attrs.mediaType!, {}]));
          responses[response.attrs.status ?? "default"] = { content };
        }
        item[method.attrs.name!.toLowerCase()] = { operationId: method.attrs.id, parameters, responses };
      }
      if (Object.keys(item).length > 0) paths[path] = item;
      walk(resource.inner, path);
    }
  };
  for (const resources of elements(text, "resources")) walk(resources.inner, "");
  return { openapi: "3.0.0", paths };
}
