// Egress never sends a URL's user information (`user:pass@`); a secret
// written there is in the stepfile for everyone to read, and used by nobody.
import { hasUserInfo } from "../../format/urls.js";
import { toolKind, toolUrl, toolUrlField } from "../../format/types.js";
import type { Rule } from "./rule.js";

export const urlUserInfo: Rule = {
  id: "url-user-info",
  severity: "warning",
  description: "A tool's server, url or OpenAPI document url holds user information (user@), which is never sent.",
  check({ doc, report }) {
    for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
      const kind = toolKind(tool)!;
      const url = toolUrl(tool, kind);
      if (hasUserInfo(url)) report(["tools", toolId, kind, toolUrlField(kind)], "the user information in this URL (user@) is never sent; a secret belongs in a credential");
      const documentUrl = tool.openapi?.url;
      if (documentUrl !== undefined && hasUserInfo(documentUrl)) report(["tools", toolId, "openapi", "url"], "the user information in this URL (user@) is never sent");
    }
  },
};
