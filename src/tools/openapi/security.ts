// Turns an operation's security requirements into credential placements.
// Egress attaches the tool's one credential; the placements only say where.
import { ApiDocumentInvalid } from "../../errors.js";
import { isObject, type JsonObject } from "./json.js";
import type { Placement } from "./types.js";

/**
 * Placements of every scheme the operation accepts, first requirement first,
 * without repeats. `null` when the document says nothing about security, or
 * names only schemes Stepgate cannot place (undefined ones, `mutualTLS`,
 * HTTP schemes other than bearer and basic): egress then falls back to the
 * credential's own kind. `[]` when the operation needs no credential
 * (`security: []`, or only `{}`). Undefined schemes are skipped rather than
 * refused because a fetched document is pinned and cannot be corrected.
 */
export function securityPlacements(document: JsonObject, operation: JsonObject, operationId: string): Placement[] | null {
  const requirements = operation.security ?? document.security;
  if (requirements === undefined) return null;
  if (!Array.isArray(requirements)) throw new ApiDocumentInvalid(`operation ${operationId}: security is not a list`, { operation: operationId });
  const components = isObject(document.components) ? document.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  const placements: Placement[] = [];
  const seen = new Set<string>();
  let named = false;
  for (const requirement of requirements) {
    if (!isObject(requirement)) continue;
    for (const name of Object.keys(requirement)) {
      named = true;
      const scheme = schemes[name];
      const placement = isObject(scheme) ? placementOf(scheme, name, operationId) : undefined;
      const key = JSON.stringify(placement ?? null);
      if (placement && !seen.has(key)) {
        seen.add(key);
        placements.push(placement);
      }
    }
  }
  return placements.length === 0 && named ? null : placements;
}

function placementOf(scheme: JsonObject, name: string, operationId: string): Placement | undefined {
  switch (scheme.type) {
    case "apiKey": {
      const where = scheme.in;
      if ((where !== "header" && where !== "query" && where !== "cookie") || typeof scheme.name !== "string" || scheme.name === "") {
        throw new ApiDocumentInvalid(`security scheme ${name} (used by operation ${operationId}) needs "in" (header, query or cookie) and "name"`, {
          operation: operationId,
          scheme: name,
        });
      }
      return { in: where, name: scheme.name };
    }
    case "http": {
      const kind = typeof scheme.scheme === "string" ? scheme.scheme.toLowerCase() : "";
      if (kind === "bearer") return { in: "bearer" };
      if (kind === "basic") return { in: "basic" };
      return undefined;
    }
    case "oauth2":
    case "openIdConnect":
      return { in: "bearer" };
    default:
      return undefined;
  }
}
