// A schema's `format` is checked only when it names a format Stepgate knows
// (ajv-formats' list, KNOWN_FORMATS); any other is ignored, so values are not
// checked at all. Ajv reports that by printing a line when it compiles the
// schema, which reached standard error (in stdio mode without --ledger-dir
// that stream carries only ledger lines) and named no place in the file;
// Stepgate's Ajv instances print nothing (src/jsonschema/ajv.ts) and this
// rule says it instead, where the format is written.
import { closestNames } from "../../format/closest-names.js";
import { isObject, type JsonObject } from "../../format/json-pointer.js";
import type { PathSegment } from "../../format/source.js";
import { KNOWN_FORMATS } from "../../jsonschema/ajv.js";
import { forEachSubschemaAt } from "../../jsonschema/schema-keywords.js";
import type { Rule } from "./rule.js";

export const unknownFormat: Rule = {
  id: "unknown-format",
  severity: "warning",
  description: "A schema's format is not one Stepgate checks, so values are not checked against it at all.",
  check({ doc, report }) {
    const known = [...KNOWN_FORMATS];
    const visit = (schema: JsonObject, at: PathSegment[]): void => {
      const format = schema.format;
      if (typeof format === "string" && !KNOWN_FORMATS.has(format)) {
        const near = closestNames(format, known);
        const instead = near.length > 0 ? `did you mean ${near.map((n) => `"${n}"`).join(" or ")}? ` : "";
        report([...at, "format"], `"${format}" is not a format Stepgate checks, so any value passes it; ${instead}the formats checked are ${known.join(", ")}; for anything else, use pattern`);
      }
      forEachSubschemaAt(schema, at, visit);
    };
    for (const [name, schema] of Object.entries(doc.$defs ?? {})) if (isObject(schema)) visit(schema, ["$defs", name]);
    if (isObject(doc.inputs)) visit(doc.inputs, ["inputs"]);
    doc.steps.forEach((step, si) => {
      if (isObject(step.produces)) visit(step.produces, ["steps", si, "produces"]);
      (step.gates ?? []).forEach((gate, gi) => {
        if (isObject(gate.schema)) visit(gate.schema, ["steps", si, "gates", gi, "schema"]);
      });
    });
  },
};
