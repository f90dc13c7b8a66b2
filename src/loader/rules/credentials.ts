// Format section 8, rule 4: a tool's credential is declared, its hosts hold
// the tool's host (a secret goes nowhere else), and it is of a kind the tool
// can send; a credential's own fields fit its kind.
import { toolKind, toolUrl } from "../../format/types.js";
import { hostOf } from "../../format/urls.js";
import type { Rule } from "./rule.js";

export const credentialsRule: Rule = {
  id: "credentials",
  severity: "error",
  description: "A tool names a credential that is not declared, or whose hosts do not hold the tool's host, or of a kind the tool cannot take; or a credential's fields do not fit its kind.",
  check({ doc, report }) {
    const credentials = doc.credentials ?? {};
    for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
      const kind = toolKind(tool);
      // A tool of no one kind is tool-kind's finding; it has no URL to hold to a credential's hosts.
      if (kind === undefined || tool.credential === undefined) continue;
      const at = ["tools", toolId, "credential"];
      const cred = credentials[tool.credential];
      if (!cred) {
        report(at, `credential ${tool.credential} is not declared`);
        continue;
      }
      const host = hostOf(toolUrl(tool, kind));
      if (host && !cred.hosts.map((h) => h.toLowerCase()).includes(host)) report(at, `the tool's host ${host} is not among credential ${tool.credential}'s hosts`);
      if (kind === "mcp" && cred.kind !== "bearer" && cred.kind !== "oauth2") report(at, `an MCP tool takes a bearer or oauth2 credential, not ${cred.kind}`);
    }
    for (const [name, cred] of Object.entries(credentials)) {
      const at = ["credentials", name];
      if (cred.kind === "oauth2" && cred.scopes === undefined) report(at, "an oauth2 credential needs scopes");
      if (cred.kind !== "oauth2" && cred.scopes !== undefined) report([...at, "scopes"], `scopes are only for oauth2 credentials, not ${cred.kind}`);
      if (cred.token_url !== undefined && cred.kind !== "oauth2") report([...at, "token_url"], `token_url is only for oauth2 credentials, not ${cred.kind}`);
    }
  },
};
