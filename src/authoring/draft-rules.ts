// The draft rules of server.md: what stepgate_try refuses before a draft's
// run starts. Each broken rule is one sentence naming the rule, so the author
// (or the operator reading DraftRefused) knows what to change or grant.
import type { StepfileDocument, ToolDef } from "../format/types.js";
import { SETTING_REF } from "../format/urls.js";
import { fillSettings, settingVariable } from "../tools/settings.js";
import type { DraftGrants } from "./options.js";
import { urlProblem, type PublicUrlCheck } from "./public-url.js";

export interface DraftRuleContext {
  grants: DraftGrants;
  env: Readonly<Record<string, string | undefined>>;
  publicUrl: PublicUrlCheck;
}

/** Every draft rule the document breaks; empty when stepgate_try would start it. */
export function draftRuleBreaches(doc: StepfileDocument, ctx: DraftRuleContext): string[] {
  const breaches: string[] = [];
  const granted = new Set(ctx.grants.settings);
  const values = new Map<string, string>();
  for (const name of Object.keys(doc.settings ?? {})) {
    if (!granted.has(name)) breaches.push(`setting ${name} is not granted to drafts (the operator starts Stepgate with --draft-setting ${name})`);
    else {
      const value = ctx.env[settingVariable(name)];
      if (value) values.set(name, value);
    }
  }
  // An unset setting is reported by preflight; its name stands in for the
  // value here so the rest of the URL can still be judged.
  const fill = (text: string) => fillSettings(text, values).replace(SETTING_REF, (_, name: string) => name);

  for (const [id, tool] of Object.entries(doc.tools ?? {})) {
    for (const url of toolUrls(tool)) {
      const problem = urlProblem(fill(url), ctx.publicUrl);
      if (problem) breaches.push(`tool ${id}: ${url} is not a public https URL (${problem}) and its host is not granted with --draft-host`);
    }
  }

  for (const [name, def] of Object.entries(doc.credentials ?? {})) {
    const grant = ctx.grants.credentials.find((g) => g.name === name);
    if (!grant) {
      breaches.push(`credential ${name} is not granted to drafts (the operator starts Stepgate with --draft-credential ${name}=<host>)`);
      continue;
    }
    if (def.token_url !== undefined) breaches.push(`credential ${name} has a token_url, which drafts may not use`);
    const allowed = new Set(grant.hosts.map(normalHost));
    for (const host of def.hosts) {
      const filled = normalHost(fill(host));
      if (!allowed.has(filled)) breaches.push(`credential ${name} lists host ${filled}, which --draft-credential ${name} does not grant (granted: ${grant.hosts.join(", ")})`);
    }
  }
  return breaches;
}

function toolUrls(tool: ToolDef): string[] {
  if (tool.openapi) return [tool.openapi.server, ...(tool.openapi.url !== undefined ? [tool.openapi.url] : [])];
  if (tool.mcp) return [tool.mcp.url];
  return tool.verifier ? [tool.verifier.url] : [];
}

/** "api.example.com:443" and "api.example.com" name the same https host. */
function normalHost(host: string): string {
  return host.toLowerCase().replace(/:443$/, "");
}
