// One run's chain: each record's `prev` is the hash of the previous record's
// RFC 8785 form, and the record is stored as exactly that form, so what is
// on disk is what was hashed.
import { canonicalJson, sha256 } from "../format/identity.js";
import type { LedgerWriter } from "../engine/records.js";
import type { LedgerRecord, RecordFields, RecordType } from "./records.js";
import type { SinkFactory } from "./sinks.js";

/** Where a run's records go: one line (canonical JSON, no newline) at a time. */
export interface LedgerSink {
  write(line: string): void;
}

/** The engine's ledger port: one hash chain per run, written to the run's sink. */
export function chainedLedgers(sinks: SinkFactory, clock: () => Date = () => new Date()): (stepfile: string, run: string) => LedgerChain {
  return (stepfile, run) => new LedgerChain(run, stepfile, sinks(stepfile, run), clock);
}

export class LedgerChain implements LedgerWriter {
  private seq = 0;
  private prev: string | null = null;

  constructor(
    readonly run: string,
    readonly stepfile: string,
    private readonly sink: LedgerSink,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  append<T extends RecordType>(type: T, fields: RecordFields[T]): LedgerRecord {
    const record = { run: this.run, stepfile: this.stepfile, seq: this.seq, type, at: this.clock().toISOString(), prev: this.prev, ...fields } as LedgerRecord;
    const line = canonicalJson(record);
    this.sink.write(line);
    this.prev = sha256(line);
    this.seq += 1;
    return record;
  }
}
