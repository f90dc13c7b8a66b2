// One run's chain: each record's `prev` is the hash of the previous record's
// RFC 8785 form, and the record is stored as exactly that form, so what is
// on disk is what was hashed. With a signing key, the closing record and a
// checkpoint every `checkpointEvery` records are signed (src/ledger/signing.ts).
import { canonicalJson, sha256 } from "../format/identity.js";
import type { LedgerWriter } from "../engine/records.js";
import { isClosing, type CheckpointFields, type LedgerRecord, type LedgerRecordType, type RecordFields, type RecordType } from "./records.js";
import type { RecordSigner } from "./signing.js";
import type { SinkFactory } from "./sinks.js";

/** Where a run's records go: one line (canonical JSON, no newline) at a time. */
export interface LedgerSink {
  write(line: string): void;
  /** Resolves once the records that must survive a power loss (a run's last) are on disk; absent where nothing is synced. */
  durable?(): Promise<void>;
}

export const DEFAULT_CHECKPOINT_EVERY = 64;

export interface ChainSigning {
  signer: RecordSigner;
  /** Records between signed checkpoints (`--checkpoint-every`). */
  checkpointEvery: number;
}

export interface ChainedLedgers {
  (stepfile: string, run: string): LedgerChain;
  /** Sign a checkpoint into every run still open (a clean shutdown); nothing without a key. */
  checkpointOpen(): void;
}

/** The engine's ledger port: one hash chain per run, written to the run's sink. */
export function chainedLedgers(sinks: SinkFactory, clock: () => Date = () => new Date(), signing?: ChainSigning): ChainedLedgers {
  const open = new Set<LedgerChain>();
  const factory = (stepfile: string, run: string) => {
    const chain = new LedgerChain(run, stepfile, sinks(stepfile, run), clock, signing, () => open.delete(chain));
    open.add(chain);
    return chain;
  };
  return Object.assign(factory, {
    checkpointOpen() {
      for (const chain of open) chain.checkpoint("shutdown");
    },
  });
}

export class LedgerChain implements LedgerWriter {
  private seq = 0;
  private prev: string | null = null;
  private sinceSigned = 0;
  private closed = false;

  constructor(
    readonly run: string,
    readonly stepfile: string,
    private readonly sink: LedgerSink,
    private readonly clock: () => Date = () => new Date(),
    private readonly signing?: ChainSigning,
    private readonly onClose: () => void = () => undefined,
  ) {}

  append<T extends RecordType>(type: T, fields: RecordFields[T]): LedgerRecord {
    const closing = isClosing(type);
    const record = this.write(type, fields, closing);
    if (closing) {
      this.closed = true;
      this.onClose();
    } else if (this.signing && this.sinceSigned >= this.signing.checkpointEvery) this.checkpoint("interval");
    return record;
  }

  /** Resolves once the run's last record, if written, is on disk (see fileSinks). */
  durable(): Promise<void> {
    return this.sink.durable?.() ?? Promise.resolve();
  }

  /** A signed checkpoint, unless there is no key, the run has ended or the last record is signed already. */
  checkpoint(reason: CheckpointFields["reason"]): void {
    if (!this.signing || this.closed || this.sinceSigned === 0) return;
    this.write("checkpoint", { reason } satisfies CheckpointFields, true);
  }

  private write(type: LedgerRecordType, fields: object, sign: boolean): LedgerRecord {
    const header = { run: this.run, stepfile: this.stepfile, seq: this.seq, type, at: this.clock().toISOString(), prev: this.prev };
    const plain = { ...header, ...fields };
    const record = (sign && this.signing ? this.signing.signer.sign(plain) : plain) as LedgerRecord;
    const line = canonicalJson(record);
    this.sink.write(line);
    this.prev = sha256(line);
    this.seq += 1;
    this.sinceSigned = sign && this.signing ? 0 : this.sinceSigned + 1;
    return record;
  }
}
