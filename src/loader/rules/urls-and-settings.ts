// Format section 8, rule 12 (and section 3): a URL a tool is reached at, or
// its document fetched from, follows the URL rules, with settings only in
// its host or port, each naming a declared setting; a credential's hosts are
// hosts and its token_url a fixed URL; a declared setting is used somewhere;
// a setting's pattern compiles under RE2, as every pattern does.
import { checkRegex } from "../../expr/index.js";
import type { PathSegment } from "../../format/source.js";
import { toolKind, toolUrl, toolUrlField } from "../../format/types.js";
import { settingsIn, urlProblems } from "../../format/urls.js";
import type { Rule } from "./rule.js";

export const urlsAndSettings: Rule = {
  id: "urls-and-settings",
  severity: "error",
  description: "A URL breaks the URL rules, names a setting that is not declared, or a setting is declared and never used, or its pattern does not compile under RE2.",
  check({ doc, report }) {
    const settings = doc.settings ?? {};
    const used = new Set<string>();
    const useSetting = (name: string, path: PathSegment[]) => {
      if (Object.hasOwn(settings, name)) used.add(name);
      else report(path, `{${name}} names no declared setting`);
    };
    const checkUrl = (url: string, path: PathSegment[]) => {
      for (const p of urlProblems(url)) report(path, p);
      for (const s of settingsIn(url)) useSetting(s, path);
    };
    for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
      const kind = toolKind(tool);
      // A tool of no one kind is tool-kind's finding; which of its URLs counts is unknown.
      if (kind === undefined) continue;
      checkUrl(toolUrl(tool, kind), ["tools", toolId, kind, toolUrlField(kind)]);
      // A document's url is a tool URL like server (section 3): settings in its host or port, filled at preflight.
      if (kind === "openapi" && tool.openapi!.url !== undefined) checkUrl(tool.openapi!.url, ["tools", toolId, "openapi", "url"]);
    }
    for (const [name, cred] of Object.entries(doc.credentials ?? {})) {
      const at: PathSegment[] = ["credentials", name];
      if (cred.token_url !== undefined) {
        if (settingsIn(cred.token_url).length > 0) report([...at, "token_url"], "token_url must be a fixed URL, without settings");
        else for (const p of urlProblems(cred.token_url)) report([...at, "token_url"], p);
      }
      cred.hosts.forEach((host, i) => {
        for (const s of settingsIn(host)) useSetting(s, [...at, "hosts", i]);
        if (/[/?#@\s]/.test(host)) report([...at, "hosts", i], `${JSON.stringify(host)} must be a host with an optional :port, nothing else`);
      });
    }
    for (const [name, setting] of Object.entries(settings)) {
      if (!used.has(name)) report(["settings", name], `setting ${name} is declared but no tool URL or credential host uses it`);
      if (setting.pattern === undefined) continue;
      try {
        checkRegex(setting.pattern);
      } catch (error) {
        report(["settings", name, "pattern"], `pattern does not compile under RE2: ${(error as Error).message}`);
      }
    }
  },
};
