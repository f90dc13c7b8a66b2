// A run as spans, watched through the engine's RunObserver seam: one span per
// run, under the request that started it; one per step attempt, with each
// gate's verdict as an event (ids and verdicts only: never an output, a
// diagnosis or an argument); one per call, verifier, approval wait and the
// preflight. Later requests of the run (stepgate_call, stepgate_submit) are
// spans of their own that link to the run's span, and the run's spans made
// while they are handled link back to them (docs/observability.md says why).
import { ROOT_CONTEXT, SpanStatusCode, context, trace, type Attributes, type Link, type Span, type SpanContext, type Tracer } from "@opentelemetry/api";
import type { RunContext } from "../engine/context.js";
import type { Attempt, RunObserver, RunPhase } from "../engine/observer.js";
import type { LoadedStepfile } from "../loader/load.js";
import type { Instruments } from "./instruments.js";
import * as n from "./names.js";

type ObserveRun = NonNullable<RunContext["observe"]>;

interface OpenAttempt {
  step: string;
  attempt: number;
  mechanical: boolean;
  span: Span;
}

export class RunSpans {
  /** The spans of runs in progress, for later requests to link to. */
  private readonly open = new Map<string, SpanContext>();

  constructor(
    private readonly tracer: Tracer,
    private readonly instruments: Instruments,
  ) {}

  spanOf(run: string): SpanContext | undefined {
    return this.open.get(run);
  }

  readonly observe: ObserveRun = ({ id, stepfile }) => {
    const stepfileId = stepfile.doc.id;
    // The request that started the run is its span's parent, not a request to link to.
    const startedBy = trace.getSpanContext(context.active())?.spanId;
    const runSpan = this.tracer.startSpan(`run ${stepfileId}`, {
      attributes: { [n.ATTR_RUN_ID]: id, [n.ATTR_STEPFILE_ID]: stepfileId, [n.ATTR_STEPFILE_IDENTITY]: stepfile.identity },
    });
    this.open.set(id, runSpan.spanContext());
    this.instruments.runsStarted.add(1, { [n.ATTR_STEPFILE_ID]: stepfileId });
    this.instruments.runsActive.add(1, { [n.ATTR_STEPFILE_ID]: stepfileId });
    const tracer = this.tracer;
    const instruments = this.instruments;
    const forget = () => this.open.delete(id);
    let current: OpenAttempt | undefined;
    const waits: Span[] = [];

    const under = (span: Span) => trace.setSpan(ROOT_CONTEXT, span);
    const openAttempt = (step: string, attempt: number, mechanical: boolean) => {
      const span = tracer.startSpan(`step ${step}`, { attributes: { [n.ATTR_STEP_ID]: step, [n.ATTR_STEP_ATTEMPT]: attempt, [n.ATTR_STEP_MECHANICAL]: mechanical } }, under(runSpan));
      current = { step, attempt, mechanical, span };
    };
    const endWaits = () => waits.splice(0).forEach((span) => span.end());
    // Started while a later request's span is active: a link leads from this run's span to that request.
    const startChild = (name: string, attributes: Attributes, parent: Span) => {
      const active = trace.getSpanContext(context.active());
      const later = active !== undefined && active.spanId !== startedBy && active.spanId !== parent.spanContext().spanId;
      const links: Link[] = later ? [{ context: active }] : [];
      return tracer.startSpan(name, { attributes, links }, under(parent));
    };

    const observer: RunObserver = {
      stepStarted(step, mechanical) {
        current?.span.end();
        openAttempt(step, 1, mechanical);
      },
      attempt(attempt: Attempt) {
        if (current?.step !== attempt.step) openAttempt(attempt.step, 1, attempt.mechanical);
        const open = current!;
        const kindOf = (gate: string) => gateKind(stepfile, attempt.step, gate);
        for (const gate of attempt.passed) open.span.addEvent(n.EVENT_GATE, { [n.ATTR_GATE_ID]: gate, [n.ATTR_GATE_KIND]: kindOf(gate), [n.ATTR_GATE_VERDICT]: "pass" });
        for (const gate of new Set(attempt.failures.map((f) => f.gate))) {
          open.span.addEvent(n.EVENT_GATE, { [n.ATTR_GATE_ID]: gate, [n.ATTR_GATE_KIND]: kindOf(gate), [n.ATTR_GATE_VERDICT]: "fail" });
          instruments.gateFailures.add(1, { [n.ATTR_STEPFILE_ID]: stepfileId, [n.ATTR_STEP_ID]: attempt.step, [n.ATTR_GATE_ID]: gate, [n.ATTR_GATE_KIND]: kindOf(gate) });
        }
        const failed = attempt.failures.length > 0;
        open.span.setAttribute(n.ATTR_STEP_OUTCOME, failed ? "failed" : "passed");
        if (failed) open.span.setStatus({ code: SpanStatusCode.ERROR });
        endWaits();
        open.span.end();
        current = undefined;
        // A failed attempt with attempts left is followed by the next one, which starts now (the retry reply).
        if (failed && !open.mechanical && open.attempt < attemptsOf(stepfile, open.step)) openAttempt(open.step, open.attempt + 1, false);
      },
      around<T>(phase: RunPhase, work: () => Promise<T>): Promise<T> {
        const span = startChild(phaseName(phase), phaseAttributes(phase), phase.kind === "preflight" ? runSpan : (current?.span ?? runSpan));
        return context.with(trace.setSpan(context.active(), span), work).then(
          (value) => {
            span.end();
            return value;
          },
          (error: unknown) => {
            span.setAttribute(n.ATTR_ERROR_TYPE, errorType(error));
            span.setStatus({ code: SpanStatusCode.ERROR });
            span.end();
            throw error;
          },
        );
      },
      approvalWaiting(step, gates) {
        for (const gate of gates) {
          waits.push(startChild(`approval ${gate}`, { [n.ATTR_STEP_ID]: step, [n.ATTR_GATE_ID]: gate, [n.ATTR_APPROVAL_MODE]: "between-calls" }, current?.span ?? runSpan));
        }
      },
      ended(state, error) {
        endWaits();
        current?.span.end();
        current = undefined;
        const type = state === "abandoned" ? "abandoned" : error;
        runSpan.setAttribute(n.ATTR_RUN_OUTCOME, state);
        if (state !== "finished") {
          if (type !== undefined) runSpan.setAttribute(n.ATTR_ERROR_TYPE, type);
          runSpan.setStatus({ code: SpanStatusCode.ERROR });
        }
        runSpan.end();
        forget();
        instruments.runsActive.add(-1, { [n.ATTR_STEPFILE_ID]: stepfileId });
        if (state === "finished") instruments.runsFinished.add(1, { [n.ATTR_STEPFILE_ID]: stepfileId });
        else instruments.runsFailed.add(1, { [n.ATTR_STEPFILE_ID]: stepfileId, [n.ATTR_ERROR_TYPE]: type ?? "_OTHER" });
      },
    };
    return observer;
  };
}

function phaseName(phase: RunPhase): string {
  switch (phase.kind) {
    case "preflight":
      return "preflight";
    case "call":
      return `call ${phase.operation}`;
    case "verifier":
      return `verify ${phase.gate}`;
    case "approval":
      return `approval ${phase.gate}`;
  }
}

function phaseAttributes(phase: RunPhase): Attributes {
  switch (phase.kind) {
    case "preflight":
      return {};
    case "call":
      return { [n.ATTR_STEP_ID]: phase.step, [n.ATTR_OPERATION]: phase.operation };
    case "verifier":
      return { [n.ATTR_STEP_ID]: phase.step, [n.ATTR_GATE_ID]: phase.gate, [n.ATTR_VERIFIER]: phase.tool };
    case "approval":
      return { [n.ATTR_STEP_ID]: phase.step, [n.ATTR_GATE_ID]: phase.gate, [n.ATTR_APPROVAL_MODE]: "within-call" };
  }
}

/** An error's type name (Stepgate's errors are named for their type); never its message, which may quote input. */
export function errorType(error: unknown): string {
  return error instanceof Error && error.name !== "" ? error.name : "_OTHER";
}

function gateKind(stepfile: LoadedStepfile, step: string, gate: string): string {
  // `produces` and `derive` are the shape checks' own verdicts, named as the ledger names them.
  return stepfile.compiled.steps.find((s) => s.def.id === step)?.gates.find((g) => g.id === gate)?.kind ?? gate;
}

function attemptsOf(stepfile: LoadedStepfile, step: string): number {
  return stepfile.compiled.steps.find((s) => s.def.id === step)?.attempts ?? 1;
}
