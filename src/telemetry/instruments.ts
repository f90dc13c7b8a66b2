// Every metric Stepgate records, made once from the process's meter.
import type { Counter, Histogram, Meter, UpDownCounter } from "@opentelemetry/api";
import * as n from "./names.js";

export interface Instruments {
  operationDuration: Histogram;
  sessionDuration: Histogram;
  egressDuration: Histogram;
  runsStarted: Counter;
  runsFinished: Counter;
  runsFailed: Counter;
  gateFailures: Counter;
  runsActive: UpDownCounter;
  sessionsActive: UpDownCounter;
}

export function makeInstruments(meter: Meter): Instruments {
  const seconds = (name: string, description: string) => meter.createHistogram(name, { unit: "s", description, advice: { explicitBucketBoundaries: n.DURATION_BUCKETS } });
  return {
    operationDuration: seconds(n.METRIC_MCP_SERVER_OPERATION_DURATION, "How long each MCP request took to answer"),
    sessionDuration: seconds(n.METRIC_MCP_SERVER_SESSION_DURATION, "How long each MCP session lasted"),
    egressDuration: seconds(n.METRIC_HTTP_CLIENT_REQUEST_DURATION, "How long each outgoing request took, its retries and waits included"),
    runsStarted: meter.createCounter(n.METRIC_RUNS_STARTED, { unit: "{run}", description: "Runs started" }),
    runsFinished: meter.createCounter(n.METRIC_RUNS_FINISHED, { unit: "{run}", description: "Runs that finished every step" }),
    runsFailed: meter.createCounter(n.METRIC_RUNS_FAILED, { unit: "{run}", description: "Runs that failed or were abandoned, by error type" }),
    gateFailures: meter.createCounter(n.METRIC_GATE_FAILURES, { unit: "{failure}", description: "Gates that failed an attempt" }),
    runsActive: meter.createUpDownCounter(n.METRIC_RUNS_ACTIVE, { unit: "{run}", description: "Runs in progress" }),
    sessionsActive: meter.createUpDownCounter(n.METRIC_SESSIONS_ACTIVE, { unit: "{session}", description: "MCP sessions open" }),
  };
}
