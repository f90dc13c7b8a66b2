// A Toolbox that answers from a cases file instead of the network, so
// `stepgate --test` drives the real engine offline. It is loaded with the
// calls the next requests must be; a request that is not the next recorded
// call (operation and arguments, compared as JSON) is a mismatch, which is
// how a mechanical step is replayed rather than trusted.
//
// Offline there is no verifier to POST to and no person to ask, so `http`
// and `approve` gates answer from the entry being judged: failed when its
// `expect.fail` lists them, passed otherwise. The engine then decides retries
// and the next step exactly as the recorded run did.
import type { ValidateFunction } from "ajv";
import { jsonEqual } from "../expr/index.js";
import { exposedName } from "../format/types.js";
import type { LoadedStepfile } from "../loader/load.js";
import type { Approver } from "../engine/context.js";
import type { CallOutcome, CallTarget, OperationView, Toolbox, VerifierVerdict } from "../engine/toolbox.js";
import { loadOperations } from "../tools/openapi/index.js";
import { argumentProblems, outcomeFacts, remoteSchemas } from "../tools/toolbox.js";
import type { CaseCall, Expectation } from "./cases-file.js";
import { recordedText } from "./recorded-error.js";
import { capText } from "../quote.js";

const builtSchemas = new WeakMap<LoadedStepfile, Promise<ReadonlyMap<string, { view: OperationView; validate: ValidateFunction }>>>();

export class ReplayToolbox implements Toolbox {
  private pending: CaseCall[] | undefined;
  private made = 0;
  /** Why the last request was refused, when it did not match the recorded call. */
  mismatch: string | undefined;
  /** The gates the entry being judged records as failed. */
  private recordedFailures: ReadonlySet<string> = new Set();

  /** Answers approve gates as the entry being judged records them; set it as the run's approver. */
  readonly approver: Approver = {
    kind: "ask",
    approve: ({ gate }) =>
      Promise.resolve(
        this.recordedFailures.has(gate)
          ? { approved: false as const, reason: "the cases file records this approval as declined (nobody is asked offline)" }
          : { approved: true as const },
      ),
  };

  private constructor(private readonly schemas: ReadonlyMap<string, { view: OperationView; validate: ValidateFunction }>) {}

  /**
   * Argument schemas come only from inline OpenAPI documents: a document
   * behind a `url` would need the network, and MCP tools publish theirs only
   * when connected, so their arguments are not checked offline.
   */
  static async open(stepfile: LoadedStepfile): Promise<ReplayToolbox> {
    // Built once per loaded stepfile: `--mutate` plays hundreds of runs of one file.
    let schemas = builtSchemas.get(stepfile);
    if (!schemas) builtSchemas.set(stepfile, (schemas = ReplayToolbox.schemasOf(stepfile)));
    return new ReplayToolbox(await schemas);
  }

  private static async schemasOf(stepfile: LoadedStepfile): Promise<ReadonlyMap<string, { view: OperationView; validate: ValidateFunction }>> {
    const schemas = new Map<string, { view: OperationView; validate: ValidateFunction }>();
    for (const tool of Object.values(stepfile.doc.tools ?? {})) {
      const document = tool.openapi?.document;
      if (!document) continue;
      const names = (tool.exposes ?? []).map(exposedName);
      const offline = () => Promise.reject(new Error("offline: no document is fetched"));
      const specs = await loadOperations({ server: tool.openapi!.server, document } as never, names, offline);
      for (const [name, op] of specs) {
        const view = { name, ...(op.description ? { description: op.description } : {}), inputSchema: op.inputSchema };
        schemas.set(name, { view, validate: remoteSchemas.compile(op.argumentSchema) });
      }
    }
    return schemas;
  }

  /** The calls the next requests must be, in order; undefined when the cases file has nothing more to give. */
  load(calls: readonly CaseCall[] | undefined): void {
    this.pending = calls ? [...calls] : undefined;
    this.made = 0;
    this.mismatch = undefined;
  }

  /**
   * The expectation of the entry whose attempt the engine judges next, or
   * undefined when no entry is being judged (every such gate then passes).
   */
  judging(expectation: Expectation | undefined): void {
    this.recordedFailures = new Set(expectation === undefined || expectation === "pass" ? [] : expectation.fail);
  }

  /** Recorded calls no request asked for. */
  unused(): CaseCall[] {
    return this.pending ?? [];
  }

  operation(name: string): OperationView | undefined {
    return this.schemas.get(name)?.view ?? { name, inputSchema: { type: "object" } };
  }

  checkArguments(name: string, args: unknown): string[] {
    const op = this.schemas.get(name);
    return op ? argumentProblems(op.validate, args) : [];
  }

  target(): CallTarget {
    return { tool: "replay", host: "offline", credential: null };
  }

  call(name: string, args: Record<string, unknown>): Promise<CallOutcome> {
    if (!this.pending) return Promise.reject(new Error("the cases file records no more entries"));
    this.made += 1;
    const next = this.pending.shift();
    const asked = `${name} with ${capText(JSON.stringify(args))}`;
    if (!next) return this.refuse(`call ${this.made} asked ${asked}, but the entry records only ${this.made - 1} call(s)`);
    if (next.tool !== name || !jsonEqual(next.arguments, args)) {
      return this.refuse(`call ${this.made} asked ${asked}, but the entry records ${next.tool} with ${capText(JSON.stringify(next.arguments))}`);
    }
    const text = recordedText(next.result, next.is_error, next.status);
    return Promise.resolve({
      result: next.result,
      text,
      isError: next.is_error,
      tool: "replay",
      host: "offline",
      status: next.status ?? (next.is_error ? null : 200),
      durationMs: 0,
      credential: null,
      ...outcomeFacts(text),
    });
  }

  shown(_name: string, outcome: CallOutcome): string {
    return outcome.text;
  }

  /** The engine names the gate in the payload it would POST; that is all the recorded verdict needs. */
  verify(_tool: string, payload: Record<string, unknown>): Promise<VerifierVerdict> {
    const failed = typeof payload.gate === "string" && this.recordedFailures.has(payload.gate);
    return Promise.resolve(failed ? { pass: false, message: "the cases file records this gate as failed (no verifier is asked offline)" } : { pass: true });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private refuse(message: string): Promise<never> {
    this.mismatch = message;
    return Promise.reject(new Error(message));
  }
}
