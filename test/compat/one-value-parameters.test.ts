// One-value parameters named in arguments (issue 8, format section 2),
// through the built CLI against a loopback API: the same value is accepted
// and sent once; a different value is refused naming the parameter, from a
// mechanical step (CallArgumentsInvalid) and from the client (an error
// result); a name the operation does not have stays refused.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApiFixture, type ApiFixture } from "../support/api-fixture.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

type Result = { content: Array<{ type: string; text: string }>; structuredContent: Record<string, unknown>; isError?: boolean };

const open: Array<SpawnedStepgate | ApiFixture> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

function stepfile(mechanicalArguments: string): string {
  return `stepgate: "1"
id: usage
settings: { api-port: { description: port } }
inputs: { type: object, properties: { format: { type: string } } }
tools:
  billing:
    openapi:
      server: http://127.0.0.1:{api-port}
      document:
        openapi: 3.1.0
        paths:
          /usage:
            get:
              operationId: exportUsage
              parameters:
                - { name: format, in: query, required: true, schema: { const: json } }
                - { name: X-Api-Version, in: header, schema: { enum: ["2024-01"] } }
                - { name: month, in: query, schema: { type: string } }
              responses: { "200": { description: ok } }
    exposes: [exportUsage]
steps:
  - id: first
    do:
      calls: [{ id: u, operation: exportUsage, arguments: ${mechanicalArguments} }]
      output: { n: { var: responses.u.n } }
    produces: { type: object }
  - id: ask
    instructions: Fetch a month.
    tools: [exportUsage]
    produces: { type: object }
    gates: [{ id: any, schema: true }]
`;
}

async function serve(text: string) {
  const api = await startApiFixture([
    { method: "GET", path: "/usage?format=json", answers: [{ json: { n: 1 } }] },
    { method: "GET", path: "/usage?format=json&month=2026-09", answers: [{ json: { n: 2 } }] },
  ]);
  open.push(api);
  const file = join(mkdtempSync(join(tmpdir(), "stepgate-one-value-")), "usage.stepfile.yaml");
  writeFileSync(file, text);
  const server = await spawnStepgate(["--ledger-dir", join(file, "..", "ledger"), file], { API_PORT: String(api.port) });
  open.push(server);
  const call = async (name: string, args: Record<string, unknown>) => (await server.client.callTool({ name, arguments: args })) as Result;
  return { api, call };
}

describe("one-value parameters named in arguments", () => {
  it("accepts the one value from a mechanical step and from the client, and sends each parameter once", async () => {
    const { api, call } = await serve(stepfile('{ format: json, X-Api-Version: "2024-01" }'));
    const started = await call("usage", {});
    expect(started.structuredContent, started.content[0]?.text).toMatchObject({ state: "running", completed: ["first"] });
    const run = started.structuredContent.run;
    const made = await call("stepgate_call", { run, operation: "exportUsage", arguments: { month: "2026-09", format: "json", "X-Api-Version": "2024-01" } });
    expect(made.isError, made.content[0]?.text).toBeUndefined();
    expect(api.received.map((r) => r.path)).toEqual(["/usage?format=json", "/usage?format=json&month=2026-09"]);
    expect(api.received.map((r) => r.headers["x-api-version"])).toEqual(["2024-01", "2024-01"]);
    // Still hidden from the client: the operation's schema does not list it.
    const listed = (started.structuredContent.step as { operations: Array<{ arguments: { properties: object } }> }).operations[0]!.arguments.properties;
    expect(Object.keys(listed)).toEqual(["month"]);
  }, 120_000);

  it("refuses another value naming the parameter, and an argument the operation does not have", async () => {
    const { api, call } = await serve(stepfile("{ format: { var: inputs.format } }"));
    const failed = await call("usage", { format: "csv" });
    expect(failed.structuredContent).toMatchObject({ state: "failed", error: "CallArgumentsInvalid" });
    expect(failed.content[0]?.text).toContain('arguments.format must be "json", the only value the operation allows');
    expect(api.received).toEqual([]);

    const started = await call("usage", { format: "json" });
    const run = started.structuredContent.run;
    const wrong = await call("stepgate_call", { run, operation: "exportUsage", arguments: { "X-Api-Version": "2025-06" } });
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0]?.text).toContain('arguments.X-Api-Version must be "2024-01", the only value the operation allows');
    const unknown = await call("stepgate_call", { run, operation: "exportUsage", arguments: { fromat: "json" } });
    expect(unknown.content[0]?.text).toContain("fromat is not an argument of this operation");
    expect(api.received.map((r) => r.path)).toEqual(["/usage?format=json"]);
  }, 120_000);
});
