// `stepgate --test --mutate`: for every entry of a case expected to pass,
// wrong outputs derived from the one submitted (and, for mechanical steps,
// varied API results) are played through the real engine with the same
// evidence, offline, each as a run of the case cut at that entry. A wrong
// mutant some gate refuses (or that stops the run) is killed; one every
// gate passes survives. Likely-equivalent outputs are played too, and a
// gate that refuses one is reported: equivalence is a judgement, so that is
// a warning, not a failure.
import { jsonEqual } from "../../expr/index.js";
import { exposedName } from "../../format/types.js";
import { pathString, type PathSegment } from "../../format/source.js";
import type { Limits } from "../../engine/context.js";
import type { CompiledStep } from "../../loader/compile.js";
import type { LoadedStepfile } from "../../loader/load.js";
import type { Case, CaseCall, CaseEntry, CasesFile } from "../cases-file.js";
import { runCase, SKIPPED_GATE_KINDS, type EntryResult } from "../run-cases.js";
import { acceptedFor, type AcceptedList } from "./accepted.js";
import { documentedRequired } from "./evidence/documented.js";
import { EVIDENCE_KINDS } from "./evidence/index.js";
import { evidenceValues } from "./evidence-values.js";
import { ABSENT, type Derived } from "./kind.js";
import { OUTPUT_KINDS } from "./kinds/index.js";
import { orderTest } from "./order.js";
import { placesOf } from "./places.js";
import { seeded, type Random } from "./random.js";
import { roundingAsked } from "./round-to.js";
import { schemaView } from "./schema-view.js";

/** Wrong mutants played per entry unless `--mutants` says otherwise; equivalents get half as many again. */
export const DEFAULT_MUTANTS_PER_ENTRY = 24;
export const DEFAULT_SEED = 1;

/** Every mutation name, for accepted-survivor entries to be checked against. */
export const MUTATION_NAMES: readonly string[] = [...OUTPUT_KINDS.map((k) => k.name), ...EVIDENCE_KINDS.map((k) => k.name)];

export interface MutateOptions {
  seed: number;
  /** Wrong mutants played per entry at most. */
  perEntry: number;
  accepted?: AcceptedList;
}

export interface MutantRef {
  case: string;
  /** 1-based, as `--test` counts entries. */
  entry: number;
  line?: number;
  step: string;
  /** Where the change is: in the output (`added[0]`), or for a mechanical step in its recorded calls (`calls[0].result.items`). */
  path: string;
  mutation: string;
  change: string;
}

export interface Survivor extends MutantRef {
  /** The output that passed every gate (for a mechanical step, the one its template computed). */
  output: unknown;
  /** Gates of the step not checked offline, which might have refused it (`refund-policy (http)`). */
  unchecked: string[];
}

export interface AcceptedMutant extends Survivor {
  reason: string;
}

export interface RefusedEquivalent extends MutantRef {
  gate: string;
  diagnosis: string;
}

export interface GateKills {
  step: string;
  mutants: number;
  killed: number;
  /** Kills per gate (a mutant refused by two gates counts for both); `(run stopped)` for mutants that ended the run. */
  gates: Record<string, number>;
}

export interface MutationReport {
  stepfile: string;
  file: string;
  cases: string;
  mutants: number;
  killed: number;
  /** (killed + accepted) / mutants; 1 when there are no mutants. */
  score: number;
  survivors: Survivor[];
  accepted: AcceptedMutant[];
  refusedEquivalents: RefusedEquivalent[];
  /** Equivalents played, refused or not. */
  equivalents: number;
  /** Mutants that could not be judged offline: the varied result made the step ask for a call the file does not record. */
  inconclusive: number;
  steps: GateKills[];
  /** Cases not mutated, and why. */
  skipped: Array<{ case: string; reason: string }>;
  /** Accepted entries that matched no survivor: likely stale. */
  unusedAccepted: Array<{ step: string; mutation: string; line?: number }>;
}

interface Planned {
  ref: Omit<MutantRef, "case" | "entry" | "line" | "step">;
  equivalent: boolean;
  /** The altered entry. */
  entry: CaseEntry;
}

export async function mutateCases(stepfile: LoadedStepfile, file: CasesFile, limits: Limits, options: MutateOptions, stepfilePath = stepfile.doc.id): Promise<MutationReport> {
  const report: MutationReport = {
    stepfile: stepfile.doc.id,
    file: stepfilePath,
    cases: file.path,
    mutants: 0,
    killed: 0,
    score: 1,
    survivors: [],
    accepted: [],
    refusedEquivalents: [],
    equivalents: 0,
    inconclusive: 0,
    steps: [],
    skipped: [],
    unusedAccepted: [],
  };
  const perStep = new Map<string, GateKills>();
  const used = new Set<number>();
  for (const kase of file.cases) {
    const baseline = await runCase(stepfile, kase, limits);
    if (!baseline.ok) {
      report.skipped.push({ case: kase.name, reason: "its verdicts differ from the file (see stepgate --test); mutants of a case that does not replay say nothing" });
      continue;
    }
    for (const [k, entry] of kase.steps.entries()) {
      if (entry.expect !== "pass") continue;
      const step = stepfile.compiled.steps.find((s) => s.def.id === entry.step)!;
      const random = seeded(options.seed, kase.name, k);
      const planned = step.mechanical ? planEvidence(stepfile, entry, options.perEntry, random) : planOutputs(stepfile, step, kase, k, options.perEntry, random);
      const stats = perStep.get(step.def.id) ?? { step: step.def.id, mutants: 0, killed: 0, gates: {} };
      perStep.set(step.def.id, stats);
      for (const plan of planned) {
        const result = await playMutant(stepfile, kase, k, plan.entry, limits);
        const ref: MutantRef = { case: kase.name, entry: k + 1, ...(entry.line !== undefined ? { line: entry.line } : {}), step: step.def.id, ...plan.ref };
        const verdict = judgeMutant(result, entry, step.mechanical);
        if (verdict.kind === "inconclusive") {
          report.inconclusive += 1;
          continue;
        }
        if (plan.equivalent) {
          report.equivalents += 1;
          if (verdict.kind === "killed") for (const f of verdict.by) report.refusedEquivalents.push({ ...ref, gate: f.gate, diagnosis: f.diagnosis });
          continue;
        }
        // A varied result the step turned into the recorded output changed nothing a later step sees.
        if (verdict.kind === "same") continue;
        report.mutants += 1;
        stats.mutants += 1;
        if (verdict.kind === "killed") {
          report.killed += 1;
          stats.killed += 1;
          for (const f of verdict.by) stats.gates[f.gate] = (stats.gates[f.gate] ?? 0) + 1;
          continue;
        }
        const survivor: Survivor = { ...ref, output: step.mechanical ? verdict.output : plan.entry.output, unchecked: uncheckedGates(step) };
        const accepted = options.accepted?.entries.indexOf(acceptedFor(options.accepted, survivor)!) ?? -1;
        if (accepted >= 0) {
          used.add(accepted);
          report.accepted.push({ ...survivor, reason: options.accepted!.entries[accepted]!.reason });
        } else report.survivors.push(survivor);
      }
    }
  }
  report.steps = [...perStep.values()].filter((s) => s.mutants > 0);
  report.score = report.mutants === 0 ? 1 : (report.killed + report.accepted.length) / report.mutants;
  report.unusedAccepted = (options.accepted?.entries ?? []).filter((_, i) => !used.has(i)).map((e) => ({ step: e.step, mutation: e.mutation, ...(e.line !== undefined ? { line: e.line } : {}) }));
  return report;
}

/** The case up to entry `k`, with that entry altered and expected to pass: its result is the mutant's verdict. */
async function playMutant(stepfile: LoadedStepfile, kase: Case, k: number, altered: CaseEntry, limits: Limits): Promise<EntryResult | undefined> {
  const cut: Case = { ...kase, steps: [...kase.steps.slice(0, k), altered] };
  const result = await runCase(stepfile, cut, limits);
  return result.entries[k];
}

type Verdict = { kind: "killed"; by: Array<{ gate: string; diagnosis: string }> } | { kind: "survived"; output: unknown } | { kind: "same" } | { kind: "inconclusive" };

function judgeMutant(result: EntryResult | undefined, original: CaseEntry, mechanical: boolean): Verdict {
  if (!result || result.unreplayable) return { kind: "inconclusive" };
  if (result.failures === undefined) return { kind: "killed", by: [{ gate: "(run stopped)", diagnosis: result.problems[0] ?? "the run stopped" }] };
  if (result.failures.length > 0) return { kind: "killed", by: result.failures };
  if (mechanical) return jsonEqual(result.computed, original.output) ? { kind: "same" } : { kind: "survived", output: result.computed };
  return { kind: "survived", output: result.computed };
}

function uncheckedGates(step: CompiledStep): string[] {
  return step.gates.filter((g) => (SKIPPED_GATE_KINDS as readonly string[]).includes(g.kind)).map((g) => `${g.id} (${g.kind})`);
}

/** Wrong outputs and equivalents of an agent entry's output, each valid against the schema the agent is shown. */
function planOutputs(stepfile: LoadedStepfile, step: CompiledStep, kase: Case, k: number, cap: number, random: Random): Planned[] {
  const entry = kase.steps[k]!;
  const sources = [
    { label: "inputs", value: kase.inputs },
    ...kase.steps.slice(0, k + 1).flatMap((e) => e.calls.map((call) => ({ label: `calls.${call.tool}`, value: call.result }))),
    ...kase.steps.slice(0, k).filter((e) => e.expect === "pass").map((e) => ({ label: `steps.${e.step}`, value: e.output })),
  ];
  const places = placesOf(entry.output, schemaView(step.def.produces, stepfile.doc.$defs ?? {}), {
    evidence: evidenceValues(sources),
    ordered: orderTest(step.def),
    roundTo: roundingAsked(step.def.instructions),
    random,
  });
  const seen = new Set<string>([JSON.stringify(entry.output)]);
  const wrong: Planned[] = [];
  const equivalent: Planned[] = [];
  for (const place of places) {
    for (const kind of OUTPUT_KINDS) {
      for (const d of kind.derive(place)) {
        const output = withValue(entry.output, place.path, d);
        const key = JSON.stringify(output);
        if (seen.has(key) || !step.shown(output)) continue;
        seen.add(key);
        const plan = { ref: { path: pathString(d.at ?? place.path) || "(output)", mutation: kind.name, change: d.change }, equivalent: d.equivalent === true, entry: { ...entry, output, expect: "pass" as const } };
        (d.equivalent ? equivalent : wrong).push(plan);
      }
    }
  }
  return [...spread(wrong, cap, random), ...spread(equivalent, Math.max(4, Math.ceil(cap / 2)), random)];
}

/** Varied results of a mechanical entry's recorded calls. */
function planEvidence(stepfile: LoadedStepfile, entry: CaseEntry, cap: number, random: Random): Planned[] {
  const http = new Set(Object.values(stepfile.doc.tools ?? {}).flatMap((t) => (t.openapi ? (t.exposes ?? []).map(exposedName) : [])));
  const required = documentedRequired(stepfile.doc);
  const planned: Planned[] = [];
  entry.calls.forEach((call, i) => {
    for (const kind of EVIDENCE_KINDS) {
      for (const m of kind.derive({ call, index: i, http: http.has(call.tool), required })) {
        const calls: CaseCall[] = entry.calls.map((c, j) => (j === i ? m.call : c));
        planned.push({ ref: { path: pathString(m.at), mutation: kind.name, change: `${call.tool}: ${m.change}` }, equivalent: false, entry: { ...entry, calls, expect: "pass" } });
      }
    }
  });
  return spread(planned, cap, random);
}

/**
 * At most `cap` of `plans`, spread over places and kinds: taken in turns
 * from each (path, mutation) group, each group shuffled by the seed, so a
 * long list does not use the whole budget on its first field.
 */
function spread(plans: Planned[], cap: number, random: Random): Planned[] {
  if (plans.length <= cap) return plans;
  const groups = new Map<string, Planned[]>();
  for (const p of plans) {
    const key = `${p.ref.path}\u0000${p.ref.mutation}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const queues = random.shuffle([...groups.values()].map((g) => random.shuffle(g)));
  const out: Planned[] = [];
  while (out.length < cap) {
    for (const q of queues) {
      const next = q.shift();
      if (next && out.length < cap) out.push(next);
    }
  }
  return out;
}

/** A copy of `root` with `d.value` at `path` (ABSENT removes the property). */
function withValue(root: unknown, path: PathSegment[], d: Derived): unknown {
  if (path.length === 0) return d.value;
  const copy = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<string | number, unknown>;
  const [head, ...rest] = path as [PathSegment, ...PathSegment[]];
  if (rest.length === 0 && d.value === ABSENT) delete copy[head];
  else copy[head] = withValue(copy[head], rest, d);
  return copy;
}
