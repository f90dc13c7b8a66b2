// A run as a state machine: preflight -> (agent step: call*, submit+ |
// mechanical step)* -> finished | failed | abandoned. Calls of one run are
// handled one at a time, in arrival order, even when a client sends several
// at once. With an approver that asks between calls, a step whose checks
// passed waits in the run (`pending`) until the same call comes back with
// the person's answers.
import { CallArgumentsInvalid, CallLimitReached, EgressDenied, GateFailed, type GateFailure, InternalError, LedgerUnwritable, PlaceholderUnresolved, PreflightFailed, RunNotActive, StepgateError, ToolCallFailed } from "../errors.js";
import { canonicalLength, hashJson } from "../format/identity.js";
import { checkShape } from "./shape.js";
import { fillPlaceholders } from "../format/placeholders.js";
import type { LedgerWriter } from "./records.js";
import type { CompiledStep } from "../loader/compile.js";
import type { LoadedStepfile } from "../loader/load.js";
import { describeErrors } from "../jsonschema/ajv.js";
import type { Approver, RunContext } from "./context.js";
import { askApprovals, failuresOf, runChecks, type ApproveGate, type GateData, type GateVerdict } from "./gates.js";
import { ApprovalWait, type ApprovalAnswers, type CallKey } from "./approval-wait.js";
import type { Reply, StepView } from "./replies.js";
import { emptyToolbox, type CallOutcome, type RetryNotice, type Toolbox } from "./toolbox.js";
import type { RunEvent, RunEvents } from "./events.js";
import { runMechanicalStep } from "./mechanical.js";
import { refusedLaterCall, type RefusedCall } from "./pre-approval.js";
import type { AttemptCall, RunObserver, RunPhase } from "./observer.js";
import { truncateForClient } from "./truncate.js";
import { withAttemptsMade } from "../attempts.js";
import type { Evidence, RunState } from "./run-types.js";

export class Run {
  state: RunState = "running";
  private stepIndex = -1;
  private attempt = 0;
  private callsThisStep = 0;
  private calls: Evidence[] = [];
  /** This attempt's calls with their statuses, for the observer. */
  private attemptCalls: AttemptCall[] = [];
  private readonly outputs: Record<string, unknown> = {};
  private completed: string[] = [];
  private toolbox: Toolbox = emptyToolbox;
  private queue: Promise<unknown> = Promise.resolve();
  private pending: ApprovalWait | undefined;
  /** The call being handled, which a wait that starts during it must be resumed by. */
  private currentCall: CallKey = { call: "start", hash: "" };
  readonly ledger: LedgerWriter;
  private readonly observer: RunObserver | undefined;
  /** Who hears this request's events (progress, retries); set only while a request is handled. */
  private events: RunEvents | undefined;

  private constructor(
    readonly id: string,
    readonly stepfile: LoadedStepfile,
    readonly inputs: Record<string, unknown>,
    private readonly ctx: RunContext,
  ) {
    this.ledger = ctx.ledger(stepfile.doc.id, id);
    this.observer = ctx.observe?.({ id, stepfile, inputs });
  }

  /** Preflight, then everything up to the first step the client must do. */
  static async start(stepfile: LoadedStepfile, inputs: unknown, ctx: RunContext, events?: RunEvents): Promise<{ run: Run; reply: Reply }> {
    const given = inputs && typeof inputs === "object" && !Array.isArray(inputs) ? (inputs as Record<string, unknown>) : {};
    const run = new Run(ctx.newRunId(), stepfile, structuredClone(given), ctx);
    run.ledger.append("run_started", { identity: stepfile.identity, inputs_hash: hashJson(given) });
    run.currentCall = { call: "start", hash: hashJson(given) };
    const reply = await run.exclusive(async () => {
      try {
        run.toolbox = await run.around({ kind: "preflight" }, () => ctx.openToolbox(stepfile, run.ledger, () => run.checkInputs(inputs), (event) => run.emit(event)));
        const asksPerson = stepfile.compiled.steps.some((s) => s.gates.some((g) => g.kind === "approve"));
        if (asksPerson && !ctx.approver) {
          throw new PreflightFailed("approval", "this stepfile has approve gates, and this client cannot ask a person (it does not support MCP elicitation)");
        }
      } catch (error) {
        return run.fail(error);
      }
      return run.advance();
    }, events);
    return { run, reply };
  }

  call(operation: string, args: unknown, events?: RunEvents): Promise<Reply> {
    return this.exclusive(() => this.doCall(operation, args), events);
  }

  submit(output: unknown, answers?: ApprovalAnswers, events?: RunEvents): Promise<Reply> {
    return this.exclusive(() => this.doSubmit(output, answers), events);
  }

  /**
   * The call that started the run came back with a person's answers: a wait
   * that began before the first agent step (a mechanical step's approve gate).
   */
  answerStart(inputs: unknown, answers: ApprovalAnswers | undefined, events?: RunEvents): Promise<Reply> {
    return this.exclusive(async () => {
      if (this.state !== "running") return this.notActive();
      const given = inputs && typeof inputs === "object" && !Array.isArray(inputs) ? inputs : {};
      if (!this.pending) return this.waiting(`Run ${this.id} has no approval waiting; go on with stepgate_submit.`);
      return this.continuePending({ call: "start", hash: hashJson(given) }, answers);
    }, events);
  }

  /** The client stopped calling, or its session ended. */
  async abandon(reason: "idle" | "session_closed" | "server_closed"): Promise<void> {
    await this.exclusive(async () => {
      if (this.state !== "running") return;
      this.state = "abandoned";
      this.ledger.append("run_abandoned", { outcome: "abandoned", reason });
      this.observer?.ended?.("abandoned");
      await this.toolbox.close().catch(() => undefined);
      await this.ledger.durable?.();
    });
  }

  /** One request at a time; `events` hears what happens while this one is handled. */
  private exclusive<T>(work: () => Promise<T>, events?: RunEvents): Promise<T> {
    const handle = async () => {
      this.events = events;
      try {
        return await work();
      } catch (error) {
        // A record the ledger could not take (a full disk), wherever it was
        // written: the run stops here, since it may not go on unrecorded.
        if (error instanceof LedgerUnwritable) return (await this.fail(error)) as T;
        throw error;
      } finally {
        this.events = undefined;
      }
    };
    const next = this.queue.then(handle, handle);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Work done on the run's behalf, inside whatever its observer wraps it in (a trace span). */
  private around<T>(phase: RunPhase, work: () => Promise<T>): Promise<T> {
    return this.observer?.around ? this.observer.around(phase, work) : work();
  }

  /** A listener that throws must not change the run. */
  private emit(event: RunEvent) {
    try {
      this.events?.(event);
    } catch {
      // Reporting is best effort; the ledger is the record.
    }
  }

  private checkInputs(inputs: unknown) {
    const validate = this.stepfile.compiled.inputs;
    if (!validate(inputs)) throw new PreflightFailed("inputs", describeErrors(validate.errors, "inputs", inputs).join("; "));
  }

  private get step(): CompiledStep {
    return this.stepfile.compiled.steps[this.stepIndex]!;
  }

  private notActive(): Reply {
    const state = this.state === "running" ? "unknown" : this.state;
    return { kind: "failed", run: this.id, state: this.state === "finished" ? "finished" : "failed", error: new RunNotActive(this.id, state) };
  }

  /** Move past the current step: skip, run mechanical steps, stop at the next agent step or finish. */
  private async advance(): Promise<Reply> {
    try {
      for (;;) {
        this.stepIndex += 1;
        if (this.stepIndex >= this.stepfile.compiled.steps.length) return await this.finish();
        const step = this.step;
        if (step.when && step.when({ inputs: this.inputs, steps: this.outputs }) !== true) {
          this.ledger.append("step_skipped", { step: step.def.id, attempt: 0 });
          continue;
        }
        this.attempt = 1;
        this.callsThisStep = 0;
        this.calls = [];
        this.attemptCalls = [];
        this.ledger.append("step_started", { step: step.def.id, attempt: 1 });
        this.observer?.stepStarted?.(step.def.id, step.mechanical);
        if (step.mechanical) {
          const output = await runMechanicalStep(step, this.mechanicalHost());
          // As for agent steps, `produces` comes first and blocks the other gates.
          if (!step.produces(output)) {
            this.concludeMechanical(step, output, [{ gate: "produces", pass: false, diagnosis: describeErrors(step.produces.errors, "output", output).join("; ") }]);
            continue;
          }
          const gates = await this.checkGates(step, output, {});
          if (gates.ask.length > 0) return this.park(step, output, output, gates.verdicts, gates.ask);
          this.concludeMechanical(step, output, gates.verdicts);
          continue;
        }
        return this.showStep(step);
      }
    } catch (error) {
      return this.fail(error);
    }
  }

  private showStep(step: CompiledStep): Reply {
    const filled = fillPlaceholders(step.def.instructions ?? "", { inputs: this.inputs, steps: this.outputs });
    if ("missing" in filled) throw new PlaceholderUnresolved(step.def.id, filled.missing);
    const view: StepView = {
      step: step.def.id,
      instructions: filled.text,
      operations: (step.def.tools ?? []).map((name) => this.toolbox.operation(name) ?? { name, inputSchema: { type: "object" } }),
      outputSchema: step.shownSchema,
      attempts: step.attempts,
      attemptsLeft: step.attempts - this.attempt + 1,
    };
    const completed = this.completed;
    this.completed = [];
    return { kind: "step", run: this.id, state: "running", step: view, completed };
  }

  private async finish(): Promise<Reply> {
    this.state = "finished";
    this.ledger.append("run_finished", { outcome: "finished", outputs_hash: hashJson(this.outputs) });
    this.observer?.ended?.("finished");
    await this.toolbox.close().catch(() => undefined);
    // The reply says the run finished: only once the ledger says so on disk.
    await this.ledger.durable?.();
    const completed = this.completed;
    this.completed = [];
    return { kind: "finished", run: this.id, state: "finished", identity: this.stepfile.identity, outputs: this.outputs, completed };
  }

  private async fail(error: unknown): Promise<Reply> {
    const failure = error instanceof StepgateError ? error : internalFailure(error);
    if (this.state === "running") {
      this.state = "failed";
      const step = this.stepIndex >= 0 && this.stepIndex < this.stepfile.compiled.steps.length ? this.step.def.id : null;
      try {
        this.ledger.append("run_failed", { outcome: "failed", error: failure.name, step });
      } catch (error) {
        // Still no room: the file ends at its last whole record, and the operator was told (src/ledger/sinks.ts).
        if (!(error instanceof LedgerUnwritable)) throw error;
      }
      this.observer?.ended?.("failed", failure.name);
      await this.toolbox.close().catch(() => undefined);
      await this.ledger.durable?.();
    }
    return { kind: "failed", run: this.id, state: "failed", error: failure };
  }

  private pass(step: CompiledStep, output: unknown) {
    this.ledger.append("step_passed", { step: step.def.id, attempt: this.attempt });
    this.outputs[step.def.id] = output;
  }

  private async doCall(operation: string, args: unknown): Promise<Reply> {
    if (this.state !== "running") return this.notActive();
    const step = this.step;
    const refuse = (text: string): Reply => ({ kind: "call", run: this.id, state: "running", operation, isError: true, text });
    // The waiting output's evidence is settled; calls resume once the person answered.
    if (this.pending) return refuse(`Step ${this.pending.step.def.id}'s output is waiting for a person's approval; no operation can be called until the person answers.`);
    if (!(step.def.tools ?? []).includes(operation)) {
      this.ledger.append("tool_refused", { step: step.def.id, operation });
      return refuse(`${operation} is not available in this step. This step may call: ${(step.def.tools ?? []).join(", ") || "nothing"}.`);
    }
    const given = args ?? {};
    const problems = this.toolbox.checkArguments(operation, given);
    if (problems.length > 0) return refuse(`Invalid arguments for ${operation}: ${problems.join("; ")}`);
    const started = performance.now();
    try {
      const outcome = await this.makeCall(operation, given as Record<string, unknown>, "client");
      // An API's error answer after the retries says how many requests were sent, as a mechanical step's failure does.
      const text = this.toolbox.shown(operation, outcome);
      const shown = truncateForClient(outcome.isError ? withAttemptsMade(text, outcome.attempts) : text, this.ctx.limits.toolResultChars);
      this.recordCall(operation, outcome, "client", shown.length);
      return { kind: "call", run: this.id, state: "running", operation, isError: outcome.isError, text: shown };
    } catch (error) {
      // A call that got no usable answer after its retries, or a POST that
      // failed, is the client's to handle, and its record says so; anything
      // else stops the run, and run_failed names the error.
      if (error instanceof ToolCallFailed) {
        this.recordFailedCall(operation, error, Math.round(performance.now() - started));
        return refuse(error.message);
      }
      return this.fail(error);
    }
  }

  /** One request, counted against the step's limit and kept as evidence when it reached the tool. */
  private async makeCall(operation: string, args: Record<string, unknown>, _caller: "client" | "stepgate"): Promise<CallOutcome> {
    const step = this.step;
    if (this.callsThisStep >= this.ctx.limits.callsPerStep) throw new CallLimitReached(step.def.id, this.ctx.limits.callsPerStep);
    this.callsThisStep += 1;
    const outcome = await this.around({ kind: "call", step: step.def.id, operation }, () => this.toolbox.call(operation, args, (notice) => this.recordRetry(notice))).catch((error: unknown) => {
      if (error instanceof EgressDenied) this.emit({ kind: "refused", step: step.def.id, operation, host: String(error.details.host ?? "") });
      throw error;
    });
    this.calls.push({ tool: operation, arguments: args, result: outcome.result, is_error: outcome.isError });
    this.attemptCalls.push({ tool: operation, arguments: args, result: outcome.result, is_error: outcome.isError, status: outcome.status });
    return outcome;
  }

  private recordCall(operation: string, outcome: CallOutcome, caller: "client" | "stepgate", shownLength: number | null, call?: string) {
    this.ledger.append("tool_call", {
      step: this.step.def.id,
      tool: outcome.tool,
      operation,
      host: outcome.host,
      status: outcome.status,
      duration_ms: outcome.durationMs,
      credential: outcome.credential,
      response_hash: outcome.responseHash,
      response_length: outcome.responseLength,
      shown_length: shownLength,
      caller,
      ...(call ? { call } : {}),
    });
  }

  /**
   * A client's call that failed with ToolCallFailed leaves the run going, so
   * it gets a `tool_call` record of its own: no response hash or length
   * (there was no usable response), the status when one came back, and the
   * error type. An error that ends the run is recorded by `run_failed`
   * instead, as the public conformance suite expects.
   */
  private recordFailedCall(operation: string, error: ToolCallFailed, durationMs: number) {
    const target = this.toolbox.target(operation);
    this.ledger.append("tool_call", {
      step: this.step.def.id,
      tool: target?.tool ?? "",
      operation,
      host: target?.host ?? "",
      status: error.status,
      duration_ms: durationMs,
      credential: target?.credential ?? null,
      response_hash: null,
      response_length: null,
      shown_length: null,
      caller: "client",
      error: error.name,
    });
  }

  private recordRetry(notice: RetryNotice) {
    const step = this.stepIndex >= 0 && this.stepIndex < this.stepfile.compiled.steps.length ? this.step.def.id : null;
    this.ledger.append("retry", { step, operation: notice.operation, attempt: notice.attempt, status: notice.status, wait_ms: notice.waitMs });
    this.emit({ kind: "retry", step, operation: notice.operation, attempt: notice.attempt, status: notice.status, waitMs: notice.waitMs });
  }

  private mechanicalHost() {
    return {
      inputs: this.inputs,
      steps: this.outputs,
      call: async (operation: string, args: Record<string, unknown>, callId: string) => {
        const outcome = await this.makeCall(operation, args, "stepgate");
        this.recordCall(operation, outcome, "stepgate", null, callId);
        return outcome;
      },
      checkArguments: (operation: string, args: unknown) => this.toolbox.checkArguments(operation, args),
      calling: (call: string, operation: string, n: number, total: number) => this.emit({ kind: "call", step: this.step.def.id, call, operation, n, total }),
      computed: (output: unknown) =>
        this.ledger.append("computed", { step: this.step.def.id, output_hash: hashJson(output ?? null), output_length: canonicalLength(output) }),
    };
  }

  private async doSubmit(output: unknown, answers?: ApprovalAnswers): Promise<Reply> {
    if (this.state !== "running") return this.notActive();
    const key: CallKey = { call: "submit", hash: hashJson(output ?? null) };
    // A repeated submit for a waiting output is the same submission, not a new attempt: no new records.
    if (this.pending) return this.continuePending(key, answers);
    this.currentCall = key;
    const step = this.step;
    const id = step.def.id;
    this.ledger.append("submit", { step: id, attempt: this.attempt, output_hash: key.hash, output_length: canonicalLength(output) });
    try {
      const checked = checkShape(step, output, { inputs: this.inputs, steps: this.outputs, calls: this.calls }, (full) =>
        this.ledger.append("derived", { step: id, attempt: this.attempt, output_hash: hashJson(full), output_length: canonicalLength(full) }),
      );
      if ("failure" in checked) return await this.concludeSubmission(step, output, output, [checked.failure]);
      const gates = await this.checkGates(step, checked.output, checked.lets);
      if (gates.ask.length > 0) return this.park(step, output, checked.output, gates.verdicts, gates.ask);
      return await this.concludeSubmission(step, output, checked.output, gates.verdicts);
    } catch (error) {
      return this.fail(error);
    }
  }

  /** The verdict of one attempt of an agent step: the next step, a retry, or GateFailed (thrown). */
  private async concludeSubmission(step: CompiledStep, submitted: unknown, checked: unknown, verdicts: GateVerdict[]): Promise<Reply> {
    const id = step.def.id;
    this.recordVerdicts(step, verdicts);
    const failures = failuresOf(verdicts);
    this.observeAttempt(step, submitted, failures, verdicts);
    if (failures.length === 0) {
      this.pass(step, checked);
      return await this.advance();
    }
    if (this.attempt >= step.attempts && this.ctx.attemptBudget !== "unbounded") throw new GateFailed(id, failures);
    this.attempt += 1;
    return { kind: "retry", run: this.id, state: "running", step: id, failures, attemptsLeft: Math.max(0, step.attempts - this.attempt + 1) };
  }

  /** The verdict of a mechanical step, which has one attempt: passed, or GateFailed (thrown). */
  private concludeMechanical(step: CompiledStep, output: unknown, verdicts: GateVerdict[]) {
    this.recordVerdicts(step, verdicts);
    const failures = failuresOf(verdicts);
    this.observeAttempt(step, output, failures, verdicts);
    if (failures.length > 0) throw new GateFailed(step.def.id, failures);
    this.pass(step, output);
    this.completed.push(step.def.id);
  }

  /**
   * Keep a checked output until a person answers. Its gate records are
   * written only with the verdict, so the ledger reads as it does when the
   * person is asked within the call.
   */
  private park(step: CompiledStep, submitted: unknown, checked: unknown, verdicts: GateVerdict[], gates: ApproveGate[]): Reply {
    this.pending = new ApprovalWait(step, this.currentCall, submitted, checked, verdicts, gates);
    for (const gate of gates) this.emit({ kind: "approval", step: step.def.id, gate: gate.id });
    this.observer?.approvalWaiting?.(step.def.id, gates.map((g) => g.id));
    return this.askPending(this.pending);
  }

  private askPending(p: ApprovalWait): Reply {
    return { kind: "approval", run: this.id, state: "running", step: p.step.def.id, pending: p.id, requests: p.unanswered() };
  }

  /**
   * A call came back while an output waits. Only the call that parked it,
   * carrying the same output (or inputs), may answer: the output a person
   * is asked about cannot be swapped for another on the way back. Answers
   * are applied to the gates kept here; without all of them the person is
   * asked again.
   */
  private async continuePending(key: CallKey, given: ApprovalAnswers | undefined): Promise<Reply> {
    const p = this.pending!;
    if (!p.isFrom(key)) {
      const what = p.key.call === "submit" ? "stepgate_submit with the same output" : "the call that started the run, with the same inputs";
      return this.waiting(`Step ${p.step.def.id}'s output is waiting for a person's approval and cannot be changed while it waits. Repeat ${what} so the person can answer.`);
    }
    if (given) p.take(given);
    const verdicts = p.verdicts();
    if (!verdicts) return this.askPending(p);
    this.pending = undefined;
    try {
      if (p.step.mechanical) {
        this.concludeMechanical(p.step, p.checked, verdicts);
        return await this.advance();
      }
      return await this.concludeSubmission(p.step, p.submitted, p.checked, verdicts);
    } catch (error) {
      return this.fail(error);
    }
  }

  private waiting(text: string): Reply {
    return { kind: "waiting", run: this.id, state: "running", step: this.pending?.step.def.id ?? this.step.def.id, text };
  }

  private observeAttempt(step: CompiledStep, output: unknown, failures: GateFailure[], verdicts: GateVerdict[]) {
    const calls = this.attemptCalls;
    this.attemptCalls = [];
    const passed = verdicts.filter((v) => v.pass).map((v) => v.gate);
    this.observer?.attempt?.({ step: step.def.id, mechanical: step.mechanical, calls, output, failures, passed });
  }

  private recordVerdicts(step: CompiledStep, verdicts: GateVerdict[]) {
    for (const v of verdicts) {
      const kind = step.gates.find((g) => g.id === v.gate)?.kind ?? (v.gate as "produces" | "derive");
      this.ledger.append("gate", { step: step.def.id, attempt: this.attempt, gate: v.gate, kind, verdict: v.pass ? "pass" : "fail", diagnosis_hash: v.pass ? null : hashJson(v.diagnosis) });
    }
  }

  /** Every gate's verdict; with an approver that asks between calls, the approvals still to ask instead of theirs. */
  private async checkGates(step: CompiledStep, output: unknown, lets: Record<string, unknown>): Promise<{ verdicts: GateVerdict[]; ask: ApproveGate[] }> {
    const data: GateData = { inputs: this.inputs, steps: this.outputs, output, calls: this.calls, let: lets };
    const services = {
      verify: (tool: string, gate: string, d: GateData) =>
        this.around({ kind: "verifier", step: step.def.id, gate, tool }, () =>
          this.toolbox.verify(
            tool,
            { stepfile: this.stepfile.doc.id, step: step.def.id, gate, inputs: d.inputs, steps: d.steps, output: d.output, calls: d.calls },
            (notice) => this.recordRetry(notice),
          ),
        ),
      ...(this.ctx.approver ? { approver: this.announced(this.ctx.approver) } : {}),
    };
    const { verdicts, approvals } = await runChecks(step, data, services);
    if (approvals.length > 0) {
      const refused = refusedLaterCall(this.stepfile.compiled.steps, this.stepIndex, { inputs: this.inputs, steps: { ...this.outputs, [step.def.id]: output } }, (op, args) => this.toolbox.checkArguments(op, args));
      if (refused) return { verdicts: [...verdicts, ...this.notAsked(step, approvals, refused)], ask: [] };
    }
    if (this.ctx.approver?.kind === "between-calls") return { verdicts, ask: approvals };
    return { verdicts: [...verdicts, ...(await askApprovals(step, data, approvals, services))], ask: [] };
  }

  /**
   * A later call this output would give arguments its operation refuses: the
   * person is not asked. A mechanical step's output cannot change, so the
   * run fails as it would at that call; an agent's submission fails its
   * approve gates with the reason, and the agent may submit another.
   */
  private notAsked(step: CompiledStep, approvals: readonly ApproveGate[], refused: RefusedCall): GateVerdict[] {
    if (step.mechanical) throw new CallArgumentsInvalid(refused.step, refused.call, refused.problems);
    const diagnosis = `not asked: with this output, step ${refused.step}'s call ${refused.call} would get arguments its operation refuses (${refused.problems}), so a person is not asked to approve it; submit an output that gives valid arguments`;
    return approvals.map((gate) => ({ gate: gate.id, pass: false, diagnosis }));
  }

  /** An approver that asks within the call tells this request's listener first: the call now waits for a person. */
  private announced(approver: Approver): Approver {
    if (approver.kind !== "ask") return approver;
    return {
      kind: "ask",
      approve: (request) => {
        this.emit({ kind: "approval", step: request.step, gate: request.gate });
        return this.around({ kind: "approval", step: request.step, gate: request.gate }, () => approver.approve(request));
      },
    };
  }
}


/** A bug of ours must still end the run with a typed error, never a stack trace to the client. */
function internalFailure(error: unknown): StepgateError {
  return new InternalError(error instanceof Error ? error.message : String(error));
}
