// What the ledger says when a session ends, through the built CLI over HTTP
// with the SDK's client: a DELETE is answered only once the session's runs
// have their run_abandoned (reason session_closed), even a run whose call
// still waits on a slow API; at SIGTERM, runs still open are abandoned with
// reason server_closed (the seed's reasons, docs/how-it-works.md).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startApiFixture } from "../support/api-fixture.js";
import { slowStepfile } from "../support/slow-stepfile.js";
import { budget } from "../support/budget.js";
import { startCliServer } from "./fixtures/cli-server.js";
import { connectClient, httpTransportOf } from "./fixtures/harness.js";

const dir = mkdtempSync(join(tmpdir(), "stepgate-session-end-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The last record of the run's ledger, or undefined before it has one. */
function lastRecord(ledgers: string, run: string): { type: string; reason?: string } | undefined {
  const name = readdirSync(ledgers).find((n) => n.includes(run) && n.endsWith(".jsonl"));
  if (name === undefined) return undefined;
  const lines = readFileSync(join(ledgers, name), "utf8").trim().split("\n");
  return JSON.parse(lines.at(-1)!) as { type: string; reason?: string };
}

describe("a session's end in the ledger", () => {
  it("DELETE is answered after run_abandoned (session_closed), even behind a slow call; SIGTERM abandons with server_closed", async () => {
    const api = await startApiFixture([{ method: "GET", path: "/slow", answers: [{ status: 200, json: { ok: true }, delay_ms: 2_000 }] }]);
    const stepfile = join(dir, "slow.stepfile.yaml");
    writeFileSync(stepfile, slowStepfile(api.origin));
    const ledgers = join(dir, "ledgers");
    const server = await startCliServer(["--ledger-dir", ledgers, stepfile]);
    try {
      const deleted = await connectClient(server.url);
      const first = ((await deleted.callTool({ name: "slow", arguments: {} })) as { structuredContent: { run: string } }).structuredContent.run;
      // The run is busy with a call the API answers in two seconds when the session is deleted.
      const call = deleted.callTool({ name: "stepgate_call", arguments: { run: first, operation: "getSlow", arguments: {} } }).catch(() => undefined);
      await expect.poll(() => api.received.length).toBe(1);
      await httpTransportOf(deleted).terminateSession();
      expect(lastRecord(ledgers, first)).toMatchObject({ type: "run_abandoned", reason: "session_closed" });
      // The session is gone, so the call's answer never comes: closing the client drops it.
      await deleted.close();
      await call;

      const open = await connectClient(server.url);
      const second = ((await open.callTool({ name: "slow", arguments: {} })) as { structuredContent: { run: string } }).structuredContent.run;
      const modern = await connectClient(server.url, "modern");
      const third = ((await modern.callTool({ name: "slow", arguments: {} })) as { structuredContent: { run: string } }).structuredContent.run;
      await server.stop();
      expect(server.child.exitCode).toBe(0);
      for (const run of [second, third]) expect(lastRecord(ledgers, run)).toMatchObject({ type: "run_abandoned", reason: "server_closed" });
    } finally {
      await server.stop();
      await api.close();
    }
  }, budget({ starts: 1, replies: 8 }));
});
