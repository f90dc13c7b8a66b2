// A collector that accepts connections and never answers, or one that is
// down, must not hold the process past the 5 s docs/observability.md
// promises at shutdown: the exporter's own timeout is set to 60 s here, so
// a process waiting for it would still be running when this test stops
// waiting (30 s, far above 5 s so a busy machine cannot fail it).
import { spawn } from "node:child_process";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../http/fixtures/cli-server.js";
import { stepgateBin } from "../support/paths.js";
import { cliEnvironment } from "../support/stepgate.js";

const greet = join(repoRoot, "test/fixtures/greet.stepfile.yaml");

async function exitAfterSigterm(endpoint: string): Promise<number | null | "still running"> {
  const env = { ...cliEnvironment(), OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: "60000", OTEL_BSP_SCHEDULE_DELAY: "100", OTEL_METRIC_EXPORT_INTERVAL: "200" };
  const child = spawn(process.execPath, [stepgateBin(), "--http", "0", greet], { env, stdio: ["ignore", "ignore", "pipe"] });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => (err += String(chunk)));
  while (!/listening on (\S+)/.test(err)) await new Promise((resolve) => setTimeout(resolve, 50));
  const url = /listening on (\S+)/.exec(err)![1]!;
  const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } } };
  await (await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(initialize) })).text();
  // Spans and metrics are being exported by now.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  child.kill("SIGTERM");
  const outcome = await Promise.race([exited, new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 30_000))]);
  if (outcome === "still running") child.kill("SIGKILL");
  return outcome;
}

describe("telemetry at shutdown", () => {
  it("does not wait on a collector that never answers", async () => {
    const held: Socket[] = [];
    const hung = createServer((socket) => void held.push(socket.on("data", () => undefined)));
    await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
    try {
      expect(await exitAfterSigterm(`http://127.0.0.1:${(hung.address() as { port: number }).port}`)).toBe(0);
    } finally {
      for (const socket of held) socket.destroy();
      hung.close();
    }
  }, 60_000);

  it("does not wait on a collector that is down", async () => {
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
    const port = (gone.address() as { port: number }).port;
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    expect(await exitAfterSigterm(`http://127.0.0.1:${port}`)).toBe(0);
  }, 60_000);
});
