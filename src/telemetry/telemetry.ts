// What the rest of Stepgate is handed when telemetry is on: one watcher per
// seam, each typed by the layer that owns the seam, so no layer outside
// src/telemetry imports OpenTelemetry. Types only: importing this loads nothing.
import type { RunContext } from "../engine/context.js";
import type { EgressTrace } from "../egress/types.js";
import type { OperationWatch } from "../mcp/watched-server.js";

export interface Telemetry {
  /** Server spans and the operation and session metrics (src/mcp/watched-server.ts). */
  operations: OperationWatch;
  /** A run's spans and run metrics (the engine's RunObserver seam). */
  observe: NonNullable<RunContext["observe"]>;
  /** Client spans, request metrics and trace headers for outgoing requests (EgressPolicy.trace). */
  egress: EgressTrace;
  /**
   * Ends what is open and sends what is buffered; resolves within 5 s even
   * when no collector answers, with false when it gave up waiting (an export
   * may still be in flight, holding the process up to the exporter's own timeout).
   */
  shutdown(): Promise<boolean>;
}
