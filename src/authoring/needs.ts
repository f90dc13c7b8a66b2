// What a stepfile needs from the operator's environment before it can run:
// one variable per credential and per setting, and a person to approve when
// it has an approve gate. `stepgate --list` and stepgate_examples both show
// it, so they say the same thing.
// From credentials.ts itself, not the egress index: --list must not load undici.
import { credentialVariable } from "../egress/credentials.js";
import { gateKind, type StepfileDocument } from "../format/types.js";
import { settingVariable } from "../tools/settings.js";

export function environmentNeeds(doc: StepfileDocument): string[] {
  return [...Object.keys(doc.credentials ?? {}).map(credentialVariable), ...Object.keys(doc.settings ?? {}).map(settingVariable)];
}

/** Whether a person answers through the client: the stepfile has an approve gate. */
export function needsApproval(doc: StepfileDocument): boolean {
  return doc.steps.some((s) => (s.gates ?? []).some((g) => gateKind(g) === "approve"));
}

/** "needs: ..." as a person reads it: the variables to set, and a person to approve when there is an approve gate. */
export function needsText(variables: readonly string[], approval: boolean): string {
  const parts = [...variables, ...(approval ? ["a person to approve (the client must support elicitation)"] : [])];
  return parts.length > 0 ? parts.join(", ") : "nothing (keyless)";
}
