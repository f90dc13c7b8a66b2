// stepgate_validate: everything an author needs to fix before trying a draft,
// in one answer: every load issue with its path and line:column, the TODO
// markers still left, and, for a draft that loads, its warnings, id,
// identity, steps and whether stepgate_try would start it. The issues and
// warnings are the loader's findings (src/loader/findings.ts), exactly what
// `stepgate --check` prints for a file, each with its rule id. A document
// pinned by url + sha256 is fetched as preflight would, when the draft rules
// let a draft reach its host (public https, or a --draft-host), so its
// checks run; else a finding says which did not. `ignore` turns warning
// rules off for one call, as `--ignore` does for one `--check`.
import type { Issue } from "../errors.js";
import { parseSource } from "../format/source.js";
import { gateKind } from "../format/types.js";
import { fetchedFindings, textFindings, type Findings } from "../loader/findings.js";
import { WAY_FORWARD } from "./draft-hosts.js";
import type { AuthoringOptions } from "./options.js";
import { settingVariable } from "../tools/settings.js";
import { draftRuleBreaches, type DraftRuleContext } from "./draft-rules.js";
import { todoMarkers, type TodoMarker } from "./todo-markers.js";

export interface StepSummary {
  id: string;
  kind: "agent" | "mechanical";
  tools: string[];
  gates: Array<{ id: string; kind: string }>;
}

export interface Validation {
  valid: boolean;
  issues: Issue[];
  todos: TodoMarker[];
  id?: string;
  identity?: string;
  steps?: StepSummary[];
  /** Likely mistakes the format does not forbid and what would silently fail at run time (the draft still loads). */
  warnings?: Issue[];
  /** Whether stepgate_try would start this draft, and the draft rules it breaks. */
  try: { accepted: boolean; refusals: string[] };
}

/** `findings` are the draft's (draftFindings); by default, fetching nothing. */
export function validateDraft(text: string, rules: DraftRuleContext, findings: Findings = textFindings(text, "draft", { unfetched: "this check fetches nothing" })): Validation {
  const parsed = parseSource(text);
  const todos = "issues" in parsed ? [] : todoMarkers(parsed);
  const { loaded, errors, warnings } = findings;
  if (!loaded) return { valid: false, issues: errors, todos, try: { accepted: false, refusals: [] } };
  const refusals = draftRuleBreaches(loaded.doc, rules);
  return {
    valid: true,
    issues: [],
    todos,
    id: loaded.doc.id,
    identity: loaded.identity,
    ...(warnings.length > 0 ? { warnings } : {}),
    steps: loaded.doc.steps.map((s) => ({
      id: s.id,
      kind: s.do ? "mechanical" : "agent",
      tools: s.tools ?? [],
      gates: (s.gates ?? []).map((g) => ({ id: g.id, kind: gateKind(g) ?? "unknown" })),
    })),
    try: { accepted: refusals.length === 0, refusals },
  };
}

/** The draft's findings but those of the `ignore` rules, each pinned document fetched and each MCP server an agent step calls listed, through egress with no credential, from a host the draft rules let drafts reach. */
export async function draftFindings(text: string, requests: AuthoringOptions["requests"], rules: DraftRuleContext, ignore: readonly string[] = []): Promise<Findings> {
  const [{ pinnedDocuments }, { mcpListings }] = await Promise.all([import("../tools/pinned-documents.js"), import("../tools/mcp-listing.js")]);
  const fetchOptions = {
    policy: { userAgent: requests.userAgent, timeoutMs: requests.timeoutMs, maxBytes: requests.maxBytes, env: {} },
    // Only the settings granted to drafts are read, as stepgate_try reads them.
    env: Object.fromEntries(rules.grants.settings.map((name) => [settingVariable(name), rules.env[settingVariable(name)]])),
    refuse: (url: URL) => {
      const problem = rules.publicUrl(url);
      return problem === undefined ? undefined : `${url.href} ${problem}; ${WAY_FORWARD.draft}`;
    },
  };
  return fetchedFindings(text, "draft", { fetchPinned: pinnedDocuments(fetchOptions), listMcp: mcpListings(fetchOptions), ignore: new Set(ignore) });
}

function issueLine(i: Issue): string {
  return `- ${i.line !== undefined ? `line ${i.line}:${i.column ?? 1} ` : ""}${i.path || "(top level)"}: ${i.message}${i.rule ? ` [${i.rule}]` : ""}`;
}

export function validationText(v: Validation): string {
  const lines: string[] = [];
  if (!v.valid) {
    lines.push(`The draft is invalid (${v.issues.length} ${v.issues.length === 1 ? "issue" : "issues"}):`);
    lines.push(...v.issues.map(issueLine));
  } else {
    lines.push(`The draft loads: id ${v.id}, identity ${v.identity}.`, "Steps:");
    for (const s of v.steps ?? []) {
      const tools = s.tools.length > 0 ? `, may call ${s.tools.join(", ")}` : "";
      lines.push(`- ${s.id} (${s.kind}${tools}); gates: ${s.gates.map((g) => `${g.id} (${g.kind})`).join(", ") || "none"}`);
    }
    if (v.warnings) {
      lines.push(`Warnings (${v.warnings.length}; the draft loads, but these look like mistakes):`);
      lines.push(...v.warnings.map(issueLine));
    }
    if (v.try.accepted) lines.push(v.todos.length > 0 ? "stepgate_try would start it, but a gate whose predicate is still a TODO: string fails every submission." : "stepgate_try would start it.");
    else lines.push("stepgate_try would refuse it (DraftRefused):", ...v.try.refusals.map((r) => `- ${r}`), WAY_FORWARD.draft);
  }
  if (v.todos.length > 0) {
    lines.push(`TODO markers left (${v.todos.length}):`);
    for (const t of v.todos) lines.push(issueLine({ ...t, message: t.text }));
  } else lines.push("No TODO markers left.");
  return lines.join("\n");
}
