// A workflow parameter that sets where an operation's security scheme puts
// its credential (`Authorization`, or an apiKey's header, query parameter or
// cookie): the
// converted stepfile sends the credential Stepgate holds there instead, so
// the value written in the document (or asked of the agent as an input) is
// never sent. The workflow still converts; this finding says what changed.
import type { StageRule } from "./rule.js";

export const arazzoCredentialParameter: StageRule = {
  id: "arazzo-credential-parameter",
  severity: "warning",
  stage: "convert",
  description: "An Arazzo parameter sets where an operation's security scheme puts its credential (a header, query parameter or cookie); Stepgate sends the credential it holds there instead of the value written.",
};
