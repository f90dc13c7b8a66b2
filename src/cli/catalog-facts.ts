// What a catalog entry uses and needs, read from its stepfile: the words
// `stepgate --list` shows and filters on, the columns of the catalog index,
// and the counts the catalog check holds the catalog to.
import type { CredentialKind, StepfileDocument } from "../format/types.js";
import { gateKind } from "../format/types.js";
import { environmentNeeds, needsApproval, needsText as needsLine } from "../authoring/needs.js";
// From credentials.ts itself, not the egress index: --list must not load undici.
import { credentialVariable } from "../egress/credentials.js";
import { refreshVariables } from "../oauth/variables.js";

export interface EntryFacts {
  /** Environment variables the operator sets; empty when keyless. */
  needs: string[];
  /** The same, as a person reads them: an oauth2 credential with a token_url may be a refresh token instead. */
  needsShown: string[];
  /** It has an approve gate, so a person answers through the client. */
  approval: boolean;
  mechanical: boolean;
  /** Its first or last step is mechanical. */
  mechanicalEnds: boolean;
  approve: boolean;
  httpVerifier: boolean;
  credentialKinds: CredentialKind[];
  /** An oauth2 credential with a token_url, so it can run from a refresh token. */
  oauth2Refresh: boolean;
  settings: boolean;
  remoteMcp: boolean;
  json: boolean;
  keyless: boolean;
}

export function entryFacts(doc: StepfileDocument, file: string): EntryFacts {
  const steps = doc.steps;
  const gates = steps.flatMap((s) => s.gates ?? []);
  const credentials = Object.values(doc.credentials ?? {});
  const tools = Object.values(doc.tools ?? {});
  const needs = environmentNeeds(doc);
  const approve = needsApproval(doc);
  const refreshable = new Set(
    Object.entries(doc.credentials ?? {})
      .filter(([, c]) => c.kind === "oauth2" && c.token_url !== undefined)
      .map(([name]) => name),
  );
  const needsShown = needs.map((variable) => {
    const name = [...refreshable].find((n) => credentialVariable(n) === variable);
    if (name === undefined) return variable;
    const { refreshToken, clientId } = refreshVariables(name);
    return `${variable} (or ${refreshToken} + ${clientId})`;
  });
  return {
    needs,
    needsShown,
    approval: approve,
    mechanical: steps.some((s) => s.do !== undefined),
    mechanicalEnds: steps[0]?.do !== undefined || steps.at(-1)?.do !== undefined,
    approve,
    httpVerifier: gates.some((g) => gateKind(g) === "http"),
    credentialKinds: [...new Set(credentials.map((c) => c.kind))].sort(),
    oauth2Refresh: credentials.some((c) => c.kind === "oauth2" && c.token_url !== undefined),
    settings: Object.keys(doc.settings ?? {}).length > 0,
    remoteMcp: tools.some((t) => t.mcp !== undefined),
    json: /\.json$/i.test(file),
    keyless: Object.keys(doc.credentials ?? {}).length === 0,
  };
}

/** "needs: ..." as a person reads it: variables to set, and a person to approve when there is an approve gate. */
export function needsText(facts: EntryFacts): string {
  return needsLine(facts.needsShown, facts.approval);
}

/** Short words for what the entry is built from; `--list` filters on them too. */
export function featureWords(facts: EntryFacts): string[] {
  return [
    ...(facts.keyless ? ["keyless"] : []),
    ...(facts.mechanical ? ["mechanical"] : []),
    ...(facts.approve ? ["approve"] : []),
    ...(facts.httpVerifier ? ["http verifier"] : []),
    ...facts.credentialKinds.map((k) => (k === "oauth2" && facts.oauth2Refresh ? "oauth2 (refresh token)" : k)),
    ...(facts.settings ? ["settings"] : []),
    ...(facts.remoteMcp ? ["remote MCP"] : []),
    ...(facts.json ? ["JSON"] : []),
  ];
}

export interface CatalogCounts {
  entries: number;
  domains: number;
  mechanical: number;
  mechanicalEnds: number;
  approve: number;
  httpVerifier: number;
  credentials: number;
  credentialKinds: Record<CredentialKind, number>;
  oauth2Refresh: number;
  settings: number;
  remoteMcp: number;
  json: number;
  keyless: number;
}

export function catalogCounts(entries: ReadonlyArray<{ category: string; facts: EntryFacts }>): CatalogCounts {
  const count = (f: (e: EntryFacts) => boolean) => entries.filter((e) => f(e.facts)).length;
  const kind = (k: CredentialKind) => count((e) => e.credentialKinds.includes(k));
  return {
    entries: entries.length,
    domains: new Set(entries.map((e) => e.category)).size,
    mechanical: count((e) => e.mechanical),
    mechanicalEnds: count((e) => e.mechanicalEnds),
    approve: count((e) => e.approve),
    httpVerifier: count((e) => e.httpVerifier),
    credentials: count((e) => !e.keyless),
    credentialKinds: { api_key: kind("api_key"), bearer: kind("bearer"), basic: kind("basic"), oauth2: kind("oauth2") },
    oauth2Refresh: count((e) => e.oauth2Refresh),
    settings: count((e) => e.settings),
    remoteMcp: count((e) => e.remoteMcp),
    json: count((e) => e.json),
    keyless: count((e) => e.keyless),
  };
}
