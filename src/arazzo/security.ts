// A source's security schemes as stepfile credentials (format section 4):
// the schemes the workflow's operations name (the operation's `security`,
// else the document's), each as `api_key`, `bearer`, `basic` or `oauth2`,
// attached only to the host of the source's server. A stepfile tool names at
// most one credential, so operations of one source that need two different
// schemes are refused. Where the credential goes on each request (header,
// query, cookie, bearer) is still read from the scheme by the OpenAPI tool
// (src/tools/openapi/security.ts); only the secret's kind and hosts are ours.
import { isObject, type JsonObject } from "../format/json-pointer.js";
import { kebab } from "./names.js";
import { refuse, type Place } from "./refusals.js";
import type { FoundOperation } from "./operations.js";

export interface Credential {
  kind: "api_key" | "bearer" | "basic" | "oauth2";
  hosts: string[];
  description: string;
  scopes?: string[];
  token_url?: string;
}

/** The one scheme these operations of one source need, as a named credential; undefined when none needs one. */
export function credentialFor(ops: readonly FoundOperation[], place: Place): { name: string; credential: Credential } | undefined {
  if (ops.length === 0) return undefined;
  const source = ops[0]!.source;
  const document = source.document;
  const schemes = isObject(document.components) && isObject(document.components.securitySchemes) ? document.components.securitySchemes : {};
  const used = new Map<string, Set<string>>();
  for (const op of ops) {
    const first = requirementOf(op);
    if (!first) continue;
    const names = Object.keys(first);
    if (names.length > 1) {
      refuse(place, `security of operation ${op.operationId}`, `it needs the schemes ${names.join(" and ")} together, and a stepfile tool carries one credential`, "describe the operation with one security scheme");
    }
    const scopes = used.get(names[0]!) ?? new Set<string>();
    for (const s of Array.isArray(first[names[0]!]) ? (first[names[0]!] as unknown[]) : []) if (typeof s === "string") scopes.add(s);
    used.set(names[0]!, scopes);
  }
  if (used.size === 0) return undefined;
  if (used.size > 1) {
    refuse(place, `security of source ${source.name}`, `its operations here need different schemes (${[...used.keys()].join(", ")}), and a stepfile tool carries one credential`, "split the workflow so each part uses operations of one scheme, or describe them with one scheme");
  }
  const [schemeName, scopes] = [...used.entries()][0]!;
  const scheme = schemes[schemeName];
  if (!isObject(scheme)) refuse(place, `security scheme ${schemeName}`, `source ${source.name} names it but does not define it under components.securitySchemes`, "define the scheme in the OpenAPI document");
  const host = new URL(source.server).host;
  const provider = scheme.type === "openIdConnect" && typeof scheme.openIdConnectUrl === "string" ? `: an access token from the OpenID provider described at ${scheme.openIdConnectUrl}` : "";
  const description = typeof scheme.description === "string" && scheme.description.trim() !== "" ? scheme.description.trim() : `The ${schemeName} credential (${String(scheme.type)}) of ${source.name}, sent only to ${host}${provider}`;
  return { name: kebab(schemeName), credential: { ...kindOf(scheme, schemeName, [...scopes], place), hosts: [host], description } };
}

/** The first security requirement of an operation that names a scheme (the one a stepfile meets; `{}`, none needed, is skipped). */
function requirementOf(op: FoundOperation): JsonObject | undefined {
  const requirements = op.operation.security ?? op.source.document.security;
  if (!Array.isArray(requirements)) return undefined;
  const first = requirements.find((r) => isObject(r) && Object.keys(r).length > 0);
  return isObject(first) ? first : undefined;
}

/**
 * Where this operation's credential goes on a request: the `authorization`
 * header for http, oauth2 and openIdConnect schemes, an apiKey scheme's header (lower-cased),
 * query parameter or cookie. A workflow parameter for that place carries the
 * secret Stepgate holds instead (arguments.ts).
 */
export function credentialPlace(op: FoundOperation): { in: "header" | "query" | "cookie"; name: string } | undefined {
  const first = requirementOf(op);
  const components = op.source.document.components;
  const schemes = isObject(components) && isObject(components.securitySchemes) ? components.securitySchemes : {};
  const scheme = first ? schemes[Object.keys(first)[0]!] : undefined;
  if (!isObject(scheme)) return undefined;
  if (scheme.type === "http" || scheme.type === "oauth2" || scheme.type === "openIdConnect") return { in: "header", name: "authorization" };
  if (scheme.type !== "apiKey" || typeof scheme.name !== "string") return undefined;
  if (scheme.in === "header") return { in: "header", name: scheme.name.toLowerCase() };
  if (scheme.in === "query" || scheme.in === "cookie") return { in: scheme.in, name: scheme.name };
  return undefined;
}

function kindOf(scheme: JsonObject, name: string, scopes: string[], place: Place): Pick<Credential, "kind" | "scopes" | "token_url"> {
  switch (scheme.type) {
    case "apiKey":
      return { kind: "api_key" };
    case "http": {
      const kind = String(scheme.scheme ?? "").toLowerCase();
      if (kind === "bearer") return { kind: "bearer" };
      if (kind === "basic") return { kind: "basic" };
      return refuse(place, `security scheme ${name}`, `HTTP ${kind} authentication has no stepfile credential kind (bearer and basic do)`, "use a bearer or basic scheme");
    }
    case "oauth2": {
      const flows = isObject(scheme.flows) ? scheme.flows : {};
      const flow = (isObject(flows.authorizationCode) ? flows.authorizationCode : isObject(flows.clientCredentials) ? flows.clientCredentials : undefined) as JsonObject | undefined;
      const all = flow && isObject(flow.scopes) ? Object.keys(flow.scopes) : [];
      const wanted = scopes.length > 0 ? scopes : all;
      if (wanted.length === 0) refuse(place, `security scheme ${name}`, "an oauth2 credential must name its scopes, and neither the operations nor the scheme list any", "list the scopes the operations need in their security requirement");
      const tokenUrl = flow && typeof flow.tokenUrl === "string" ? flow.tokenUrl : undefined;
      return { kind: "oauth2", scopes: wanted, ...(tokenUrl && /^https:\/\//.test(tokenUrl) ? { token_url: tokenUrl } : {}) };
    }
    case "openIdConnect":
      // The token endpoint is in the discovery document at openIdConnectUrl, which conversion does not fetch,
      // so no token_url: the access token itself is the secret. `openid` is the scope every OpenID Connect
      // request carries (OpenID Connect Core 1.0, 3.1.2.1), for a requirement that lists none.
      return { kind: "oauth2", scopes: scopes.length > 0 ? scopes : ["openid"] };
    default:
      return refuse(place, `security scheme ${name}`, `a ${String(scheme.type)} scheme has no stepfile credential kind`, "use an apiKey, http bearer or basic, oauth2 or openIdConnect scheme");
  }
}
