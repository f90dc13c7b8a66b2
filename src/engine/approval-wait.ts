// An output kept while a person is asked between calls (2026-07-28 approve
// gates): every other gate has passed, and the run waits for the same call
// to come back with the person's answers. The verdict is made from what is
// kept here, never from anything the client sends back but the answers.
import { randomUUID } from "node:crypto";
import type { CompiledStep } from "../loader/compile.js";
import type { ApprovalAnswer, ApprovalRequest } from "./context.js";
import { approvalVerdict, type ApproveGate, type GateVerdict } from "./gates.js";

/** Which call a wait came from, and a hash of what it carried (the output, or the run's inputs). */
export interface CallKey {
  call: "submit" | "start";
  hash: string;
}

/** The person's answers a repeated call carries, by gate id, for the wait named `pending`. */
export interface ApprovalAnswers {
  pending: string;
  answers: Record<string, ApprovalAnswer>;
}

export class ApprovalWait {
  /** Random per wait, so answers given for an earlier wait are never applied to this one. */
  readonly id = randomUUID();
  private readonly answers = new Map<string, ApprovalAnswer>();

  constructor(
    readonly step: CompiledStep,
    /** The call that must come back with the answers; any other is refused. */
    readonly key: CallKey,
    /** The output as submitted (for the observer) and as the gates saw it (with derived fields). */
    readonly submitted: unknown,
    readonly checked: unknown,
    /** Every other gate's verdict; all passed, or nobody would be asked. */
    private readonly others: GateVerdict[],
    private readonly gates: ApproveGate[],
  ) {}

  isFrom(key: CallKey): boolean {
    return key.call === this.key.call && key.hash === this.key.hash;
  }

  /** What the person has still to answer. */
  unanswered(): ApprovalRequest[] {
    return this.gates
      .filter((g) => !this.answers.has(g.id))
      .map((g) => ({ step: this.step.def.id, gate: g.id, message: g.message, output: this.checked }));
  }

  /** Keep the answers meant for this wait; a gate answered once stays answered. */
  take(given: ApprovalAnswers): void {
    if (given.pending !== this.id) return;
    for (const gate of this.gates) {
      const answer = given.answers[gate.id];
      if (answer && !this.answers.has(gate.id)) this.answers.set(gate.id, answer);
    }
  }

  /** Every gate's verdict once the person has answered them all, else undefined. */
  verdicts(): GateVerdict[] | undefined {
    if (this.gates.some((g) => !this.answers.has(g.id))) return undefined;
    return [...this.others, ...this.gates.map((g) => approvalVerdict(g, this.answers.get(g.id)!))];
  }
}
