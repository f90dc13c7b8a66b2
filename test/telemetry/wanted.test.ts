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
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toEqual({ traces: true, metrics: true, problems: [] });
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toMatchObject({ traces: true, metrics: false });
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://127.0.0.1:4318/v1/metrics" })).toMatchObject({ traces: false, metrics: true });
  });

  it("follows the exporter variables: otlp turns a signal on (default endpoint), none turns it off", () => {
    expect(telemetryWanted({ OTEL_TRACES_EXPORTER: "otlp" })).toMatchObject({ traces: true, metrics: false });
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_METRICS_EXPORTER: "none" })).toMatchObject({ traces: true, metrics: false });
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_TRACES_EXPORTER: "none", OTEL_METRICS_EXPORTER: "none" })).toBeUndefined();
    // stdout is the MCP channel: a console exporter is not offered, and asks for nothing.
    expect(telemetryWanted({ OTEL_TRACES_EXPORTER: "console" })).toBeUndefined();
  });

  it("is off with OTEL_SDK_DISABLED=true, whatever else is set", () => {
    expect(telemetryWanted({ OTEL_SDK_DISABLED: "TRUE", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBeUndefined();
    expect(telemetryWanted({ OTEL_SDK_DISABLED: "false", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toMatchObject({ traces: true, metrics: true });
  });

  it("names the settings that cannot work: an endpoint that is no http(s) URL, a protocol other than http/json", () => {
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })?.problems).toEqual([
      "OTEL_EXPORTER_OTLP_ENDPOINT is not an http(s) URL, so nothing is exported there",
      "OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not offered: Stepgate exports OTLP over HTTP as JSON (http/json)",
    ]);
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://otel.example/v1/traces", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })?.problems).toEqual([]);
  });
});
