// A verifier (`http` gate): POST the step's data as JSON; `{ pass: true }`
// passes, `{ pass: false, message }` fails with that message, and anything
// else is an outage that stops the run. The POST follows the seed's retry
// rules like any other: a 429 or a GitHub-style rate-limited 403 is retried,
// while a 5xx or network error is not (Stepgate cannot know the endpoint
// only reads), so it stops the run at once.
import { ToolCallFailed } from "../errors.js";
import { egress, type CredentialRef, type EgressPolicy } from "../egress/index.js";
import type { VerifierVerdict } from "../engine/toolbox.js";

export async function callVerifier(tool: string, url: string, payload: Record<string, unknown>, credential: CredentialRef | undefined, policy: EgressPolicy): Promise<VerifierVerdict> {
  const response = await egress(
    {
      operation: tool,
      method: "POST",
      url,
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(payload),
      ...(credential ? { credential } : {}),
    },
    policy,
  );
  const text = new TextDecoder().decode(response.body);
  const outage = (why: string) => new ToolCallFailed(`verifier ${tool}`, response.status, text.slice(0, 2000), why);
  if (response.status < 200 || response.status >= 300) throw outage("the verifier did not answer 2xx");
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw outage("the verifier's answer is not JSON");
  }
  const verdict = answer as { pass?: unknown; message?: unknown };
  if (verdict?.pass === true) return { pass: true };
  if (verdict?.pass === false && typeof verdict.message === "string") return { pass: false, message: verdict.message };
  throw outage('the verifier must answer { "pass": true } or { "pass": false, "message": "..." }');
}
