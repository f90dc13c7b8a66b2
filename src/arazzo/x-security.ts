// Redocly's `x-security` extension names the security scheme a workflow's
// or a step's calls authenticate with: a list of entries, each either
// `{ schemeName, values }`, a scheme of the OpenAPI documents'
// components.securitySchemes, or `{ scheme, values }`, one written inline
// (Redocly's Respect docs, "x-security extension",
// https://redocly.com/docs/respect/extensions/x-security.md, and its rules
// no-x-security-scheme-name-in-workflow and
// no-x-security-scheme-name-without-openapi in Redocly/redocly-cli
// docs/@v2/rules/respect/). Stepgate holds the credential the operations'
// own security requirements name (security.ts) and drops the inputs that
// only feed x-security (secret-inputs.ts). A `schemeName` no source
// declares is a mistake the author would not see: the call would go out
// without the credential they meant, so the workflow is refused naming the
// scheme, where it is written, and the nearest names declared.
import { closestNames } from "../format/closest-names.js";
import { isObject } from "../format/json-pointer.js";
import { refuse, type Place } from "./refusals.js";
import type { SourceState } from "./sources.js";

/** Refuse an `x-security` entry (the workflow's, at `place` without a step, or a step's) whose schemeName no source declares. */
export function checkSchemeNames(entries: unknown, place: Place, sources: ReadonlyMap<string, SourceState>): void {
  if (!Array.isArray(entries)) return;
  const declared = declaredSchemes(sources);
  // An OpenAPI source that did not load may declare it; that source's own refusal is the one to see.
  if (declared === undefined) return;
  for (const [i, entry] of entries.entries()) {
    if (!isObject(entry) || typeof entry.schemeName !== "string" || declared.includes(entry.schemeName)) continue;
    const name = entry.schemeName;
    const near = closestNames(name, declared);
    refuse(
      place,
      `x-security[${i}] (schemeName ${name})`,
      `no source description declares the security scheme ${name} under components.securitySchemes${declared.length > 0 ? ` (they declare ${declared.join(", ")})` : " (they declare none)"}, so the calls would go out without the credential it names`,
      near.length > 0 ? `name the scheme as a source declares it: ${near.join(", ")}` : declared.length > 0 ? `name one of ${declared.join(", ")}, or declare ${name} in the OpenAPI document` : `declare ${name} under components.securitySchemes in the OpenAPI document`,
    );
  }
}

/** Every scheme name the OpenAPI sources declare; undefined when one could not be read. */
function declaredSchemes(sources: ReadonlyMap<string, SourceState>): string[] | undefined {
  const names = new Set<string>();
  for (const state of sources.values()) {
    if ("problem" in state && state.type === "openapi") return undefined;
    if (!("source" in state)) continue;
    const components = state.source.document.components;
    if (isObject(components) && isObject(components.securitySchemes)) for (const n of Object.keys(components.securitySchemes)) names.add(n);
  }
  return [...names];
}
