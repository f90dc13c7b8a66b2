// Format rules 6 and 9-11 for every expression and template of a stepfile:
// which operators, where `results` may stand, and which `steps.`, `let.` and
// `responses.` paths each may read.
import type { RawIssue } from "../format/rules.js";
import type { PathSegment } from "../format/source.js";
import type { StepfileDocument } from "../format/types.js";
import { checkExpressionShape } from "./expression-shape.js";

export function checkExpressions(doc: StepfileDocument): RawIssue[] {
  const issues: RawIssue[] = [];
  const add = (path: PathSegment[], message: string) => issues.push({ path, message });

  for (const [toolId, tool] of Object.entries(doc.tools ?? {})) {
    (tool.exposes ?? []).forEach((e, i) => {
      if (typeof e === "string" || e.select === undefined) return;
      for (const p of checkExpressionShape(e.select, { place: "select", earlierSteps: new Set() })) add(["tools", toolId, "exposes", i, "select", ...p.path], p.message);
    });
  }

  const earlier = new Set<string>();
  doc.steps.forEach((step, si) => {
    const at: PathSegment[] = ["steps", si];
    const mechanical = step.do !== undefined;
      // Expressions (rules 6, 9, 10, 11).
      const letNames = new Set<string>();
      for (const [name, expr] of Object.entries(step.let ?? {})) {
        for (const p of checkExpressionShape(expr, { place: "let", earlierSteps: earlier, letNames })) add([...at, "let", name, ...p.path], p.message);
        letNames.add(name);
      }
      const exprs: Array<[PathSegment[], unknown, "gate" | "derive" | "when"]> = [];
      if (step.when !== undefined) exprs.push([[...at, "when"], step.when, "when"]);
      for (const [key, expr] of Object.entries(step.derive ?? {})) exprs.push([[...at, "derive", key], expr, "derive"]);
      (step.gates ?? []).forEach((gate, gi) => {
        if (gate.predicate !== undefined) exprs.push([[...at, "gates", gi, "predicate"], gate.predicate, "gate"]);
        if (gate.explain !== undefined) exprs.push([[...at, "gates", gi, "explain"], gate.explain, "gate"]);
      });
      for (const [path, expr, place] of exprs) {
        for (const p of checkExpressionShape(expr, { place, earlierSteps: earlier, letNames: place === "when" ? new Set() : letNames })) add([...path, ...p.path], p.message);
      }
      if (mechanical) {
        const calls = step.do!.calls ?? [];
        const before = new Set<string>();
        calls.forEach((call, ci) => {
          for (const field of ["arguments", "each"] as const) {
            if (call[field] === undefined) continue;
            for (const p of checkExpressionShape(call[field], { place: "do", earlierSteps: earlier, callIds: before, template: true })) {
              add([...at, "do", "calls", ci, field, ...p.path], p.message);
            }
          }
          before.add(call.id);
        });
        for (const p of checkExpressionShape(step.do!.output, { place: "do", earlierSteps: earlier, callIds: before, template: true })) {
          add([...at, "do", "output", ...p.path], p.message);
        }
      }
    earlier.add(step.id);
  });
  return issues;
}
