// Shared by the benches: order statistics, the machine line each section
// prints, and the stepfiles they measure. Not a bench itself: run.ts only
// runs files named *.bench.ts.
import { cpus, loadavg } from "node:os";

/** The p-th percentile (0..100) of samples, nearest-rank, so it is always a measured value. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error("no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/**
 * One line naming the machine, because numbers from another machine (or the
 * same one under load) are not comparable. The load average is there
 * because a busy machine inflates every number here.
 */
export function machineLine(): string {
  const list = cpus();
  const load = loadavg().map((l) => l.toFixed(2)).join(" / ");
  return `Machine: ${list[0]?.model.trim() ?? "unknown CPU"} × ${list.length}, Node ${process.version}, load average (1/5/15 min) at start ${load}.`;
}

/** Formats a duration in ms with enough digits to compare rows. */
export const ms = (value: number): string => value.toFixed(value < 10 ? 2 : 1);

/** Formats a duration given in ms as whole microseconds. */
export const us = (valueMs: number): string => Math.round(valueMs * 1000).toString();

/**
 * A valid stepfile of `steps` agent steps, each with two schema gates and two
 * predicate gates, for the cold-start bench: loading it exercises the
 * structure check, the rules, the expression checks and compilation.
 */
export function generatedStepfile(id: string, steps = 4): string {
  const lines = [
    `stepgate: "1"`,
    `id: ${id}`,
    `description: Generated stepfile ${id} for the cold-start bench.`,
    `inputs: { type: object, required: [allowed], properties: { allowed: { type: array, items: { type: string } } } }`,
    `steps:`,
  ];
  for (let i = 1; i <= steps; i++) {
    lines.push(
      `  - id: step-${i}`,
      `    instructions: "Step ${i} of ${id}: list items from {{inputs.allowed}}."`,
      `    produces: { type: object, required: [items, count], properties: { items: { type: array, items: { type: object, required: [id, price], properties: { id: { type: string }, price: { type: number } } } }, count: { type: integer } } }`,
      `    retries: 2`,
      `    gates:`,
      `      - { id: some-items, schema: { properties: { items: { minItems: 1 } } } }`,
      `      - { id: few-items, schema: { properties: { items: { maxItems: 50 } } } }`,
      `      - { id: counted, message: count must equal the number of items, predicate: { "==": [{ var: output.count }, { length: { var: output.items } }] } }`,
      `      - { id: allowed, message: every id must be allowed, predicate: { subset: [{ map: [{ var: output.items }, { var: id }] }, { var: inputs.allowed }] } }`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The one-step stepfile of the submit bench: five gates, two schema and
 * three predicate gates using in, ==, length, subset, map and all.
 */
export function fiveGateStepfile(id: string, retries: number): string {
  return `stepgate: "1"
id: ${id}
description: One step with five gates, for the submit bench.
inputs: { type: object, required: [allowed], properties: { allowed: { type: array, items: { type: string } } } }
steps:
  - id: pick
    instructions: "Pick items from {{inputs.allowed}}."
    produces: { type: object, required: [status, items, count], properties: { status: { type: string }, count: { type: integer }, items: { type: array, items: { type: object, required: [id, price], properties: { id: { type: string }, price: { type: number } } } } } }
    retries: ${retries}
    gates:
      - { id: some-items, schema: { properties: { items: { minItems: 1, maxItems: 50 } } } }
      - { id: known-status, message: status must be open or closed, predicate: { in: [{ var: output.status }, [open, closed]] } }
      - { id: counted, message: count must equal the number of items, predicate: { "==": [{ var: output.count }, { length: { var: output.items } }] } }
      - { id: allowed, message: every id must be allowed, predicate: { subset: [{ map: [{ var: output.items }, { var: id }] }, { var: inputs.allowed }] } }
      - { id: priced, message: every price must be positive, predicate: { all: [{ var: output.items }, { ">": [{ var: price }, 0] }] } }
`;
}

export const allowed = Array.from({ length: 20 }, (_, i) => `K-${i}`);

/** Passes all five gates of fiveGateStepfile. */
export const passingOutput = {
  status: "open",
  count: 10,
  items: Array.from({ length: 10 }, (_, i) => ({ id: `K-${i}`, price: 1 + i })),
};

/** Fails exactly one gate (counted) and passes the other four, so all five are still evaluated. */
export const oneGateFailingOutput = { ...passingOutput, count: 9 };
