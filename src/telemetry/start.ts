// Telemetry on: the OpenTelemetry SDK set up from the standard environment
// variables, exporting OTLP over HTTP (JSON) to the endpoint they name.
// Loaded only by `import()` when src/telemetry/wanted.ts says the operator
// asked for it, so it is its own chunk of the bundle and a start without the
// variables never reads it (test/telemetry proves both).
import { metrics, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator, getNumberFromEnv } from "@opentelemetry/core";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { egressSpans } from "./egress-spans.js";
import { makeInstruments } from "./instruments.js";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "./names.js";
import { RunSpans } from "./run-spans.js";
import { serverSpans } from "./server-spans.js";
import type { Telemetry } from "./telemetry.js";
import type { TelemetryWanted } from "./wanted.js";

export interface TelemetryOptions {
  wanted: TelemetryWanted;
  version: string;
  /** How clients reach this server: `pipe` (stdio) or `tcp` (HTTP), as network.transport says it. */
  transport: "pipe" | "tcp";
}

const SCOPE = "stepgate";
/** A collector that never answers must not hold the process up at exit for longer than this. */
const SHUTDOWN_LIMIT_MS = 5_000;

export function startTelemetry(options: TelemetryOptions): Telemetry {
  // service.name is "stepgate" unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES says otherwise (the later merge wins).
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: SCOPE, [ATTR_SERVICE_VERSION]: options.version }))
    .merge(detectResources({ detectors: [envDetector] }));
  // Trace context only: W3C baggage from a client could carry anything, and would be passed on to every API.
  const propagator = new W3CTraceContextPropagator();
  // The exporters read the endpoint, headers, timeout and compression from OTEL_EXPORTER_OTLP_*; the batch processor its OTEL_BSP_* settings.
  const tracerProvider = new NodeTracerProvider({ resource, spanProcessors: options.wanted.traces ? [new BatchSpanProcessor(new OTLPTraceExporter())] : [] });
  // Registers the AsyncLocalStorage context manager, which carries a span across the awaits of the request it belongs to.
  tracerProvider.register({ propagator });
  const interval = getNumberFromEnv("OTEL_METRIC_EXPORT_INTERVAL") ?? 60_000;
  const meterProvider = new MeterProvider({
    resource,
    readers: options.wanted.metrics
      ? [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: interval, exportTimeoutMillis: Math.min(getNumberFromEnv("OTEL_METRIC_EXPORT_TIMEOUT") ?? 30_000, interval) })]
      : [],
  });
  metrics.setGlobalMeterProvider(meterProvider);

  const tracer = trace.getTracer(SCOPE, options.version);
  const instruments = makeInstruments(meterProvider.getMeter(SCOPE, options.version));
  const runs = new RunSpans(tracer, instruments);
  return {
    operations: serverSpans({ tracer, instruments, propagator, transport: options.transport, runSpan: (run) => runs.spanOf(run) }),
    observe: runs.observe,
    egress: egressSpans(tracer, instruments, propagator),
    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), SHUTDOWN_LIMIT_MS).unref()));
      const flushed = Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]).then(() => true);
      const done = await Promise.race([flushed, limit]);
      clearTimeout(timer);
      return done;
    },
  };
}
