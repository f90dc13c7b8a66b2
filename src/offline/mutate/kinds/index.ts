// The one table of mutation kinds for outputs, in the order they are tried.
// Adding a kind is one file and one line here.
import type { MutationKind } from "../kind.js";
import { caseChanged } from "./case-changed.js";
import { dropItem } from "./drop-item.js";
import { dropped } from "./dropped.js";
import { duplicateItem } from "./duplicate-item.js";
import { flipped } from "./flipped.js";
import { instantRewritten } from "./instant-rewritten.js";
import { instantShifted } from "./instant-shifted.js";
import { nulled } from "./nulled.js";
import { offByOne } from "./off-by-one.js";
import { otherEnum } from "./other-enum.js";
import { reorder } from "./reorder.js";
import { replaceItem } from "./replace-item.js";
import { rounded } from "./rounded.js";
import { scaled } from "./scaled.js";
import { signFlip } from "./sign-flip.js";
import { swapped } from "./swapped.js";
import { tieSwapped } from "./tie-swapped.js";
import { trailingCr } from "./trailing-cr.js";
import { trailingSpace } from "./trailing-space.js";
import { truncated } from "./truncated.js";

export const OUTPUT_KINDS: readonly MutationKind[] = [
  dropItem,
  duplicateItem,
  replaceItem,
  reorder,
  offByOne,
  scaled,
  signFlip,
  truncated,
  caseChanged,
  swapped,
  instantShifted,
  trailingCr,
  trailingSpace,
  flipped,
  otherEnum,
  dropped,
  nulled,
  instantRewritten,
  rounded,
  tieSwapped,
];
