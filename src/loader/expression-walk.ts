// The walk the expression rules share: the expression layer's checks
// (src/expr/check.ts: format rules 6, 7 (responses), 9, 10 and 11) over every
// expression and template of a stepfile, each issue with its full path from
// the document's root and its rule id: `expression` for a refusal, the
// warning's own (`sort-direction`, `item-outside-each`) otherwise. One walk
// for all three rules (rules/expression.ts and the two warnings), run once
// per file through rules/facts.ts.
import { checkExpression, checkTemplate, type CheckContext, type ExpressionCheck } from "../expr/index.js";
import { parsePath } from "../format/path.js";
import type { PathSegment } from "../format/source.js";
import type { StepfileDocument } from "../format/types.js";
import type { RawIssue } from "./raw-issue.js";

export const EXPRESSION = "expression";

export function walkExpressions(doc: StepfileDocument): RawIssue[] {
  const issues: RawIssue[] = [];
  // `results` naming an operation the step cannot call is always empty, but
  // the format does not refuse it, and stepfiles of other runtimes must load.
  const report = (at: PathSegment[], check: ExpressionCheck) => {
    for (const issue of check.issues) issues.push({ path: [...at, ...parsePath(issue.path)], message: issue.message, ...(issue.warning ? { warning: true as const } : {}), rule: issue.rule ?? EXPRESSION });
  };

  for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
    (tool.exposes ?? []).forEach((e, i) => {
      if (typeof e === "string" || e.select === undefined) return;
      report(["tools", toolId, "exposes", i, "select"], checkExpression(e.select, { place: "select", earlierSteps: new Set() }));
    });
  }

  const earlierSteps = new Set<string>();
  doc.steps.forEach((step, si) => {
    const at: PathSegment[] = ["steps", si];
    // The sets themselves, not a copy per step, let entry or call (quadratic in their number): checks are
    // synchronous, and each name is added after its own check, so each set holds exactly the earlier ones.
    const base: CheckContext = { place: "gate", earlierSteps };
    if (step.when !== undefined) report([...at, "when"], checkExpression(step.when, { ...base, place: "when" }));
    const letNames = new Set<string>();
    for (const [name, expr] of Object.entries(step.let ?? {})) {
      report([...at, "let", name], checkExpression(expr, { ...base, place: "let", letNames }));
      letNames.add(name);
    }
    for (const [key, expr] of Object.entries(step.derive ?? {})) {
      report([...at, "derive", key], checkExpression(expr, { ...base, place: "derive", letNames }));
    }
    (step.gates ?? []).forEach((gate, gi) => {
      if (gate.predicate !== undefined) report([...at, "gates", gi, "predicate"], checkExpression(gate.predicate, { ...base, letNames }));
      if (gate.explain !== undefined) report([...at, "gates", gi, "explain"], checkExpression(gate.explain, { ...base, place: "explain", letNames }));
    });
    if (step.do) {
      const callIds = new Set<string>();
      (step.do.calls ?? []).forEach((call, ci) => {
        const ctx: CheckContext = { ...base, place: "do", callIds };
        if (call.each !== undefined) report([...at, "do", "calls", ci, "each"], checkTemplate(call.each, ctx));
        if (call.arguments !== undefined) report([...at, "do", "calls", ci, "arguments"], checkTemplate(call.arguments, { ...ctx, allowItem: call.each !== undefined }));
        callIds.add(call.id);
      });
      report([...at, "do", "output"], checkTemplate(step.do.output, { ...base, place: "do", callIds }));
    }
    earlierSteps.add(step.id);
  });
  return issues;
}
