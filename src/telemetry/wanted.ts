// Whether the operator asked for telemetry, read from the environment
// variables every OpenTelemetry SDK reads. Deliberately free of imports:
// this runs at every start, and when the answer is no, no OpenTelemetry
// module may be loaded at all (src/telemetry/start.ts is a lazy chunk).

export interface TelemetryWanted {
  traces: boolean;
  metrics: boolean;
  /** Settings that will not do what they say (an endpoint that is no http(s) URL, a protocol other than http/json), one line each. */
  problems: string[];
}

type Env = Record<string, string | undefined>;

/**
 * Traces (or metrics) are on when their exporter is set to `otlp`, or when
 * it is unset and an OTLP endpoint for them is; `none` turns a signal off,
 * and `OTEL_SDK_DISABLED=true` turns both off. `OTEL_SERVICE_NAME` and
 * `OTEL_RESOURCE_ATTRIBUTES` only describe the service: alone they export nothing.
 * Undefined when nothing is to be exported.
 */
export function telemetryWanted(env: Env): TelemetryWanted | undefined {
  if (isSet(env.OTEL_SDK_DISABLED) && env.OTEL_SDK_DISABLED!.trim().toLowerCase() === "true") return undefined;
  const anyEndpoint = isSet(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const traces = signalOn(env.OTEL_TRACES_EXPORTER, anyEndpoint || isSet(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT));
  const metrics = signalOn(env.OTEL_METRICS_EXPORTER, anyEndpoint || isSet(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT));
  return traces || metrics ? { traces, metrics, problems: problems(env) } : undefined;
}

const ENDPOINTS = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"];
const PROTOCOLS = ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL"];

// The exporters drop what they cannot send without a word: say so once, at start.
function problems(env: Env): string[] {
  const out: string[] = [];
  for (const name of ENDPOINTS) {
    const value = env[name];
    if (!isSet(value)) continue;
    const url = URL.canParse(value!.trim()) ? new URL(value!.trim()) : undefined;
    if (url?.protocol !== "http:" && url?.protocol !== "https:") out.push(`${name} is not an http(s) URL, so nothing is exported there`);
  }
  for (const name of PROTOCOLS) {
    const value = env[name]?.trim();
    if (isSet(value) && value !== "http/json") out.push(`${name}=${value} is not offered: Stepgate exports OTLP over HTTP as JSON (http/json)`);
  }
  return out;
}

function signalOn(exporter: string | undefined, endpoint: boolean): boolean {
  if (!isSet(exporter)) return endpoint;
  // A list, as the SDKs read it; only the OTLP exporter is offered (stdout is the MCP channel over stdio).
  return exporter!.split(",").some((name) => name.trim().toLowerCase() === "otlp");
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== "";
}
