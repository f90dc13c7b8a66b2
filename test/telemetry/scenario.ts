// One run that exercises every span Stepgate makes: a call retried after a
// 503, a submission failing a gate, then one passing a verifier and a
// person's approval. The client sends its trace in params._meta on every
// request, and everything secret in it is marked so the scan can find it.
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { expect } from "vitest";
import { startApiFixture, type ApiFixture } from "../support/api-fixture.js";

const mark = (what: string) => `${what}-${randomBytes(6).toString("hex")}`;

/** Values that must never reach the collector. */
export const SECRETS = {
  apiKey: mark("KEYSECRET"),
  input: mark("INPUTSECRET"),
  output: mark("OUTPUTSECRET"),
  responseBody: mark("BODYSECRET"),
  wrongOutput: mark("WRONGSECRET"),
};

/** The client's own trace: each request is a child span of it, as an instrumented agent's would be. */
export const CLIENT_TRACE = randomBytes(16).toString("hex");
export const newTraceId = () => randomBytes(16).toString("hex");
export const clientSpan = () => randomBytes(8).toString("hex");
export const traceparent = (span: string, traceId = CLIENT_TRACE) => `00-${traceId}-${span}-01`;

export const STEPFILE_ID = "traced-lookup";

export interface Scenario {
  api: ApiFixture;
  stepfilePath: string;
  env: Record<string, string>;
}

export async function startScenario(): Promise<Scenario> {
  const api = await startApiFixture([
    {
      method: "GET",
      path: `/items/${SECRETS.input}?api_key=${SECRETS.apiKey}`,
      answers: [{ status: 503, headers: { "retry-after": "0" }, json: { error: "busy" } }, { json: { name: SECRETS.output, note: SECRETS.responseBody } }],
    },
    { method: "POST", path: "/verify", answers: [{ json: { pass: true } }] },
  ]);
  const stepfile = {
    stepgate: "1",
    id: STEPFILE_ID,
    description: "Look an item up and name it; a checker and a person confirm.",
    inputs: { type: "object", required: ["item"], properties: { item: { type: "string" } } },
    credentials: { shop: { kind: "api_key", hosts: [api.host], description: "the shop's test key" } },
    tools: {
      shop: {
        openapi: {
          server: api.origin,
          document: {
            openapi: "3.1.0",
            info: { title: "Shop", version: "1" },
            components: { securitySchemes: { key: { type: "apiKey", in: "query", name: "api_key" } } },
            security: [{ key: [] }],
            paths: { "/items/{id}": { get: { operationId: "getItem", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }] } } },
          },
        },
        credential: "shop",
        exposes: ["getItem"],
      },
      checker: { verifier: { url: `${api.origin}/verify` } },
    },
    steps: [
      {
        id: "look",
        tools: ["getItem"],
        instructions: "Look the item up and give its name.",
        retries: 1,
        produces: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
        gates: [
          { id: "names-it", message: "the name must be the item's", predicate: { "==": [{ var: "output.name" }, SECRETS.output] } },
          { id: "checked", http: { tool: "checker" } },
          { id: "person", approve: { message: "Is this the item?" } },
        ],
      },
    ],
  };
  const dir = mkdtempSync(join(tmpdir(), "stepgate-telemetry-"));
  const stepfilePath = join(dir, `${STEPFILE_ID}.stepfile.json`);
  writeFileSync(stepfilePath, JSON.stringify(stepfile));
  return { api, stepfilePath, env: { SHOP_API_KEY: SECRETS.apiKey } };
}

/** A client that can ask a person, who approves. */
export function approving(client: Client): void {
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { approved: true } }));
}

/** The run, each request a child of a fresh client span of trace `traceId`; returns those spans in order. */
export async function driveRun(client: Client, traceId = CLIENT_TRACE): Promise<{ run: string; requestSpans: string[] }> {
  const requestSpans: string[] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    const span = clientSpan();
    requestSpans.push(span);
    return client.callTool({ name, arguments: args, _meta: { traceparent: traceparent(span, traceId), tracestate: "agent=1" } });
  };
  const start = await call(STEPFILE_ID, { item: SECRETS.input });
  const run = (start.structuredContent as { run: string }).run;
  expect(start.structuredContent).toMatchObject({ state: "running", step: { step: "look" } });
  const got = await call("stepgate_call", { run, operation: "getItem", arguments: { id: SECRETS.input } });
  expect(got.isError).toBeFalsy();
  const wrong = await call("stepgate_submit", { run, output: { name: SECRETS.wrongOutput } });
  expect(wrong.structuredContent).toMatchObject({ state: "running", failures: [{ gate: "names-it" }] });
  const done = await call("stepgate_submit", { run, output: { name: SECRETS.output } });
  expect(done.structuredContent).toMatchObject({ state: "finished" });
  return { run, requestSpans };
}

/** Every secret the scenario holds, plus any the caller adds, is absent from every body the collector received. */
export function expectNoSecrets(bodies: ReadonlyArray<{ text: string }>, extra: string[] = []): void {
  expect(bodies.length).toBeGreaterThan(0);
  for (const secret of [...Object.values(SECRETS), ...extra]) {
    for (const body of bodies) expect(body.text, `a telemetry export contains ${secret}`).not.toContain(secret);
  }
}

export function otelEnv(endpoint: string): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "100",
    OTEL_METRIC_EXPORT_INTERVAL: "300",
    OTEL_SERVICE_NAME: "stepgate-under-test",
    OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=test",
  };
}
