// With no OTEL_* variable asking for export, Stepgate loads no OpenTelemetry
// code at all and sends nothing: the built CLI runs under a module hook that
// writes down every module Node loads, and the chunks of the bundle that
// hold OpenTelemetry (found by their content) must not be among them. The
// same hook sees them load when the endpoint is set, so the check can fail.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { cliEnvironment } from "../support/stepgate.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { REPO_ROOT, stepgateBin } from "../support/paths.js";
import { startOtlpReceiver, until, type OtlpReceiver } from "./otlp-receiver.js";

const dir = mkdtempSync(join(tmpdir(), "stepgate-telemetry-off-"));
const hooks = join(dir, "hooks.mjs");
const register = join(dir, "register.mjs");
writeFileSync(hooks, `import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) {\n  appendFileSync(process.env.LOADED_LOG, url + "\\n");\n  return next(url, context);\n}\n`);
writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);

/** The bundle's files that carry OpenTelemetry code (esbuild leaves each module's path in a comment). */
function telemetryChunks(): string[] {
  const chunks = join(REPO_ROOT, "dist", "chunks");
  return readdirSync(chunks)
    .filter((f) => f.endsWith(".js") && readFileSync(join(chunks, f), "utf8").includes("node_modules/@opentelemetry/"))
    .map((f) => pathToFileURL(join(chunks, f)).href);
}

let receiver: OtlpReceiver;
let run = 0;

/** Runs one greet run over stdio with `env`; returns every module URL Node loaded. */
async function loadedDuringRun(env: Record<string, string>): Promise<string[]> {
  const log = join(dir, `loaded-${++run}.txt`);
  writeFileSync(log, "");
  const client = new Client({ name: "telemetry-off", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["--import", pathToFileURL(register).href, stepgateBin(), join(REPO_ROOT, "test/fixtures/greet.stepfile.yaml")],
      env: { ...cliEnvironment(), ...env, LOADED_LOG: log },
      stderr: "pipe",
    }),
  );
  await client.listTools();
  const start = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
  const runId = (start.structuredContent as { run: string }).run;
  await client.callTool({ name: "stepgate_submit", arguments: { run: runId, output: { greeting: "Hello Ada" } } });
  await client.close();
  return readFileSync(log, "utf8").trim().split("\n");
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(async () => receiver?.close());

describe("telemetry off", () => {
  it("bundles OpenTelemetry apart from everything that loads without it", () => {
    expect(telemetryChunks().length).toBeGreaterThan(0);
    const cli = readFileSync(join(REPO_ROOT, "dist", "cli.js"), "utf8");
    expect(cli).not.toContain("@opentelemetry/");
  });

  it.each<[string, () => Record<string, string>]>([
    // Naming the service alone turns nothing on.
    ["when no variable asks for it", () => ({ OTEL_SERVICE_NAME: "named-only", OTEL_RESOURCE_ATTRIBUTES: "a=b" })],
    ["with OTEL_SDK_DISABLED=true, whatever endpoint is set", () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SDK_DISABLED: "true" })],
  ])(
    "loads no OpenTelemetry module and exports nothing %s",
    async (_, env) => {
      const loaded = await loadedDuringRun(env());
      expect(loaded.some((url) => url.endsWith("/dist/cli.js"))).toBe(true);
      expect(loaded.filter((url) => telemetryChunks().includes(url) || url.includes("opentelemetry"))).toEqual([]);
      expect(receiver.bodies).toEqual([]);
    },
    budget({ starts: 1, replies: 3 }),
  );

  it(
    "loads its chunk and exports when the endpoint is set (the hook does see it)",
    async () => {
      const loaded = await loadedDuringRun({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: "50" });
      expect(loaded.filter((url) => telemetryChunks().includes(url)).length).toBeGreaterThan(0);
      await until("an export", () => receiver.bodies.length > 0);
    },
    budget({ starts: 1, replies: 3 }),
  );
});
