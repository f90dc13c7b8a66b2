// The one table of evidence mutation kinds, for mechanical steps.
import { emptyList } from "./empty-list.js";
import { fieldMissing } from "./field-missing.js";
import type { EvidenceKind } from "./kind.js";
import { otherStatus } from "./other-status.js";

export const EVIDENCE_KINDS: readonly EvidenceKind[] = [otherStatus, emptyList, fieldMissing];
