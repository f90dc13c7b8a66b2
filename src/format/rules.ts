// Load-time rules of format section 8 that span fields. The structure schema
// has already passed, so the document has the shape types.ts describes.
// Everything here refuses the file; each issue carries the id of the rule it
// breaks, which src/loader/rules/refusals.ts describes. Likely mistakes the
// format does not forbid are warnings, one file each in src/loader/rules/.
import type { PathSegment } from "./source.js";
import { exposedName, gateKind, toolKind, type StepfileDocument, type ToolDef } from "./types.js";
import { findPlaceholders, isPlaceholder } from "./placeholders.js";
import { hostOf, settingsIn, urlProblems } from "./urls.js";

export interface RawIssue {
  path: PathSegment[];
  message: string;
  /** Point at the key of the last path segment rather than its value. */
  atKey?: boolean;
  /** A likely mistake no rule of the format forbids: reported, never refused. */
  warning?: true;
  /** The id of the rule that found it (src/loader/rules/index.ts). */
  rule?: string;
}

export function checkRules(doc: StepfileDocument): RawIssue[] {
  const issues: RawIssue[] = [];
  const add = (rule: string, path: PathSegment[], message: string) => issues.push({ path, message, rule });
  const tools = doc.tools ?? {};
  const credentials = doc.credentials ?? {};
  const settings = doc.settings ?? {};
  const usedSettings = new Set<string>();

  // Rule 2: exposed names unique across the file, none is `submit`.
  const exposedBy = new Map<string, string>();
  for (const [toolId, tool] of Object.entries(tools)) {
    (tool.exposes ?? []).forEach((e, i) => {
      const name = exposedName(e);
      if (name === "submit") add("exposed-names", ["tools", toolId, "exposes", i], "an exposed name may not be submit");
      const other = exposedBy.get(name);
      if (other !== undefined) add("exposed-names", ["tools", toolId, "exposes", i], `${name} is already exposed by tool ${other}`);
      else exposedBy.set(name, toolId);
    });
  }

  for (const [toolId, tool] of Object.entries(tools)) checkTool(toolId, tool);

  // Settings and credentials (rules 4 and 12).
  for (const [name, cred] of Object.entries(credentials)) {
    const at: PathSegment[] = ["credentials", name];
    if (cred.kind === "oauth2" && cred.scopes === undefined) add("credentials", at, "an oauth2 credential needs scopes");
    if (cred.kind !== "oauth2" && cred.scopes !== undefined) add("credentials", [...at, "scopes"], `scopes are only for oauth2 credentials, not ${cred.kind}`);
    if (cred.token_url !== undefined) {
      if (cred.kind !== "oauth2") add("credentials", [...at, "token_url"], `token_url is only for oauth2 credentials, not ${cred.kind}`);
      if (settingsIn(cred.token_url).length > 0) add("urls-and-settings", [...at, "token_url"], "token_url must be a fixed URL, without settings");
      else for (const p of urlProblems(cred.token_url)) add("urls-and-settings", [...at, "token_url"], p);
    }
    cred.hosts.forEach((host, i) => {
      for (const s of settingsIn(host)) useSetting(s, [...at, "hosts", i]);
      if (/[/?#@\s]/.test(host)) add("urls-and-settings", [...at, "hosts", i], `${JSON.stringify(host)} must be a host with an optional :port, nothing else`);
    });
  }
  for (const name of Object.keys(settings)) {
    if (!usedSettings.has(name)) add("urls-and-settings", ["settings", name], `setting ${name} is declared but no tool URL or credential host uses it`);
  }

  checkSteps();
  return issues;

  function useSetting(name: string, path: PathSegment[]) {
    if (Object.hasOwn(settings, name)) usedSettings.add(name);
    else add("urls-and-settings", path, `{${name}} names no declared setting`);
  }

  function checkTool(toolId: string, tool: ToolDef) {
    const at: PathSegment[] = ["tools", toolId];
    const kind = toolKind(tool);
    if (kind === undefined) {
      const kinds = (["openapi", "mcp", "verifier"] as const).filter((k) => tool[k] !== undefined);
      add("tool-kind", at, kinds.length === 0 ? "a tool needs one of openapi, mcp or verifier" : `a tool has exactly one of openapi, mcp, verifier, not ${kinds.join(" and ")}`);
      return;
    }
    if (kind === "verifier" && tool.exposes !== undefined) add("tool-kind", [...at, "exposes"], "a verifier exposes nothing");
    if (kind !== "verifier" && tool.exposes === undefined) add("tool-kind", at, `an ${kind} tool needs exposes`);
    const urlField = kind === "openapi" ? "server" : "url";
    const url = kind === "openapi" ? tool.openapi!.server : kind === "mcp" ? tool.mcp!.url : tool.verifier!.url;
    for (const p of urlProblems(url)) add("urls-and-settings", [...at, kind, urlField], p);
    for (const s of settingsIn(url)) useSetting(s, [...at, kind, urlField]);
    if (kind === "openapi") {
      const o = tool.openapi!;
      const inline = o.document !== undefined;
      const fetched = o.url !== undefined || o.sha256 !== undefined;
      if (inline === fetched) add("tool-kind", [...at, "openapi"], "give either document, or url with sha256");
      else if (fetched && (o.url === undefined || o.sha256 === undefined)) add("tool-kind", [...at, "openapi"], "a fetched document needs both url and sha256");
      if (o.url !== undefined) {
        // A tool URL like server (section 3): settings in its host or port, filled at preflight.
        for (const p of urlProblems(o.url)) add("urls-and-settings", [...at, "openapi", "url"], p);
        for (const s of settingsIn(o.url)) useSetting(s, [...at, "openapi", "url"]);
      }
    }
    if (tool.credential !== undefined) {
      const cred = credentials[tool.credential];
      if (!cred) add("credentials", [...at, "credential"], `credential ${tool.credential} is not declared`);
      else {
        const host = hostOf(url);
        if (host && !cred.hosts.map((h) => h.toLowerCase()).includes(host)) {
          add("credentials", [...at, "credential"], `the tool's host ${host} is not among credential ${tool.credential}'s hosts`);
        }
        if (kind === "mcp" && cred.kind !== "bearer" && cred.kind !== "oauth2") add("credentials", [...at, "credential"], `an MCP tool takes a bearer or oauth2 credential, not ${cred.kind}`);
      }
    }
  }

  function checkSteps() {
    const stepIds = new Set<string>();
    const verifiers = new Set(Object.entries(tools).filter(([, t]) => t.verifier !== undefined).map(([id]) => id));
    doc.steps.forEach((step, si) => {
      const at: PathSegment[] = ["steps", si];
      // Rule 1.
      if (stepIds.has(step.id)) add("unique-ids", [...at, "id"], `step id ${step.id} is used by an earlier step`);
      // Until the end of this step, stepIds holds exactly the earlier steps (no copy per step: quadratic in steps).
      const earlier: ReadonlySet<string> = stepIds;
      const mechanical = step.do !== undefined;
      // Rule 7.
      if ((step.instructions === undefined) === (step.do === undefined)) add("step-kind", at, "a step has exactly one of instructions and do");
      if (mechanical) {
        for (const field of ["tools", "retries", "derive", "let"] as const) {
          if (step[field] !== undefined) add("step-kind", [...at, field], `a mechanical step (with do) may not have ${field}`);
        }
        const callIds = new Set<string>();
        (step.do!.calls ?? []).forEach((call, ci) => {
          if (callIds.has(call.id)) add("unique-ids", [...at, "do", "calls", ci, "id"], `call id ${call.id} is used by an earlier call of this step`);
          callIds.add(call.id);
          if (!exposedBy.has(call.operation)) add("exposed-operation", [...at, "do", "calls", ci, "operation"], `${call.operation} is not exposed by any tool`);
        });
      } else if ((step.gates ?? []).length === 0) add("step-kind", [...at, "gates"], "an agent step needs at least one gate");

      // Rule 3.
      (step.tools ?? []).forEach((name, ti) => {
        if (!exposedBy.has(name)) add("exposed-operation", [...at, "tools", ti], `${name} is not exposed by any tool`);
      });

      // Rule 6, placeholders.
      if (step.instructions !== undefined) {
        for (const p of findPlaceholders(step.instructions)) {
          if (!isPlaceholder(p)) add("placeholders", [...at, "instructions"], p.problem);
          else if (p.root === "steps" && !earlier.has(p.path[0]!)) {
            add("placeholders", [...at, "instructions"], `placeholder {{${p.expression}}} names ${p.path[0]}, which is not an earlier step`);
          }
        }
      }

      // Gates: rule 1 (ids), 5 (http), shapes.
      const gateIds = new Set<string>();
      (step.gates ?? []).forEach((gate, gi) => {
        const gat: PathSegment[] = [...at, "gates", gi];
        if (gateIds.has(gate.id)) add("unique-ids", [...gat, "id"], `gate id ${gate.id} is used by an earlier gate of this step`);
        gateIds.add(gate.id);
        const kind = gateKind(gate);
        if (kind === undefined) {
          add("gate-kind", gat, "a gate has exactly one of schema, predicate, http, approve");
          return;
        }
        if (kind === "predicate" && gate.message === undefined) add("gate-kind", gat, "a predicate gate needs a message");
        if (kind === "http" && !verifiers.has(gate.http!.tool)) add("http-gate-verifier", [...gat, "http", "tool"], `${gate.http!.tool} is not a verifier tool`);
      });

      // Rule 8.
      const properties = (step.produces.properties ?? {}) as Record<string, unknown>;
      for (const key of Object.keys(step.derive ?? {})) {
        if (!Object.hasOwn(properties, key)) add("derive-keys", [...at, "derive", key], `${key} is not a property of produces`);
      }

      stepIds.add(step.id);
    });
  }
}
