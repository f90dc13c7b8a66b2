// Which OTEL_* settings turn telemetry on, as every OpenTelemetry SDK reads them.
import { describe, expect, it } from "vitest";
import { telemetryWanted } from "../../src/telemetry/wanted.js";

describe("telemetryWanted", () => {
  it("is off with nothing set, or with only the service described", () => {
    expect(telemetryWanted({})).toBeUndefined();
    expect(telemetryWanted({ OTEL_SERVICE_NAME: "x", OTEL_RESOURCE_ATTRIBUTES: "a=b" })).toBeUndefined();
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " })).toBeUndefined();
  });

  it("turns both signals on with the shared endpoint, and one with its own", () => {
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toEqual({ traces: true, metrics: true });
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toEqual({ traces: true, metrics: false });
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://127.0.0.1:4318/v1/metrics" })).toEqual({ traces: false, metrics: true });
  });

  it("follows the exporter variables: otlp turns a signal on (default endpoint), none turns it off", () => {
    expect(telemetryWanted({ OTEL_TRACES_EXPORTER: "otlp" })).toEqual({ traces: true, metrics: false });
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_METRICS_EXPORTER: "none" })).toEqual({ traces: true, metrics: false });
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_TRACES_EXPORTER: "none", OTEL_METRICS_EXPORTER: "none" })).toBeUndefined();
    // stdout is the MCP channel: a console exporter is not offered, and asks for nothing.
    expect(telemetryWanted({ OTEL_TRACES_EXPORTER: "console" })).toBeUndefined();
  });

  it("is off with OTEL_SDK_DISABLED=true, whatever else is set", () => {
    expect(telemetryWanted({ OTEL_SDK_DISABLED: "TRUE", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBeUndefined();
    expect(telemetryWanted({ OTEL_SDK_DISABLED: "false", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toEqual({ traces: true, metrics: true });
  });
});
