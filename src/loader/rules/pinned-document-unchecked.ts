// A tool's OpenAPI document pinned by url + sha256 is not in the file, so the
// rules that read operations can say nothing of it until it is fetched.
// --check and stepgate_validate fetch it (src/loader/findings.ts); when they
// do not, this finding names the tool and the rules that did not run, never
// a silence that reads as "checked". Serving fetches it at preflight.
import type { RawIssue } from "../raw-issue.js";
import type { StageRule } from "./rule.js";

export const pinnedDocumentUnchecked: StageRule & { finding(toolId: string, url: string, reason: string, rules: readonly string[]): RawIssue } = {
  id: "pinned-document-unchecked",
  severity: "warning",
  stage: "fetch",
  description: "A tool's OpenAPI document is pinned by url and sha256 and was not fetched (--offline, no network, a refused host, or a digest that does not match), so the checks that read its operations did not run against it.",
  finding: (toolId, url, reason, rules) => ({
    rule: pinnedDocumentUnchecked.id,
    warning: true,
    path: ["tools", toolId, "openapi", "url"],
    message: `tool ${toolId}'s OpenAPI document (pinned by url and sha256) ${reason}, so these checks did not run against its operations: ${rules.join(", ")}; check where ${url} can be fetched and matches its sha256, or give the document inline`,
  }),
};
