// stepgate_try: a draft's run, started from its text. The run is an ordinary
// run in the registry, so stepgate_call and stepgate_submit drive it and the
// ledger records it; the draft never joins the served list, so no other
// session sees it as a tool.
import { DraftRefused } from "../errors.js";
import type { Approver } from "../engine/context.js";
import type { RunEvents } from "../engine/events.js";
import type { RunRegistry } from "../engine/registry.js";
import type { Reply } from "../engine/replies.js";
import { loadStepfileText } from "../loader/load.js";
import type { Session } from "../session.js";
import { WAY_FORWARD } from "./draft-hosts.js";
import { draftRuleBreaches, type DraftRuleContext } from "./draft-rules.js";

export interface TryContext {
  registry: RunRegistry;
  session: Session;
  approver?: Approver | undefined;
  /** Progress and log messages for the request that started the run. */
  events?: RunEvents | undefined;
  rules: DraftRuleContext;
}

/** Throws StepfileInvalid for a draft that does not load, DraftRefused for one that breaks a draft rule. */
export async function tryDraft(text: string, inputs: unknown, ctx: TryContext): Promise<Reply> {
  const loaded = loadStepfileText(text, "draft");
  const breaches = draftRuleBreaches(loaded.doc, ctx.rules);
  if (breaches.length > 0) throw new DraftRefused(breaches, WAY_FORWARD.draft);
  return ctx.registry.start(loaded, inputs ?? {}, ctx.session, ctx.approver, ctx.events);
}
