// What a stepfile needs from the operator's environment before it can run:
// one variable per credential and per setting. `stepgate --list` and
// stepgate_examples both show it, so they say the same thing.
// From credentials.ts itself, not the egress index: --list must not load undici.
import { credentialVariable } from "../egress/credentials.js";
import type { StepfileDocument } from "../format/types.js";
import { settingVariable } from "../tools/settings.js";

export function environmentNeeds(doc: StepfileDocument): string[] {
  return [...Object.keys(doc.credentials ?? {}).map(credentialVariable), ...Object.keys(doc.settings ?? {}).map(settingVariable)];
}
