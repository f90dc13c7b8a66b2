// The ledger lines of recent runs, kept in memory as they are written, so the
// MCP server can offer each run's ledger and timeline as resources whatever
// the sink (standard error cannot be read back, and a --ledger-dir file may
// be moved). Bounded: the oldest runs are forgotten first.
import type { LedgerSink } from "./chain.js";
import type { SinkFactory } from "./sinks.js";

export const KEPT_RUNS = 1000;

export interface KeptRun {
  run: string;
  stepfile: string;
  lines: readonly string[];
}

export class KeptLedgers {
  private readonly runs = new Map<string, { stepfile: string; lines: string[] }>();

  constructor(private readonly limit = KEPT_RUNS) {}

  /** The sinks of `inner`, each line also kept here. */
  tee(inner: SinkFactory): SinkFactory {
    return (stepfile, run) => {
      const sink = inner(stepfile, run);
      const kept = { stepfile, lines: [] as string[] };
      this.runs.set(run, kept);
      if (this.runs.size > this.limit) this.runs.delete(this.runs.keys().next().value!);
      // A Proxy rather than a new object, so whatever else a sink offers
      // (closing, syncing) still reaches the real one unchanged.
      return new Proxy(sink, {
        get(target, prop) {
          if (prop === "write") {
            return (line: string) => {
              target.write(line);
              kept.lines.push(line);
            };
          }
          const value = Reflect.get(target, prop) as unknown;
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      }) satisfies LedgerSink;
    };
  }

  get(run: string): KeptRun | undefined {
    const kept = this.runs.get(run);
    return kept && { run, stepfile: kept.stepfile, lines: kept.lines };
  }

  forget(run: string): void {
    this.runs.delete(run);
  }
}
