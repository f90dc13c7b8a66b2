// A clean shutdown while a run is still open signs a checkpoint into its
// ledger first. The run is kept open by a call still waiting on a slow API
// when the client closes stdin; raw JSON-RPC lines over the built CLI's
// stdio, so the test decides exactly when the pipe closes.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { verifyLedger } from "../../src/ledger/verify.js";
import { startApiFixture } from "../support/api-fixture.js";
import { slowStepfile } from "../support/slow-stepfile.js";
import { stepgateBin } from "../support/paths.js";

const dir = mkdtempSync(join(tmpdir(), "stepgate-shutdown-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("clean shutdown with a run open", () => {
  it("writes a signed shutdown checkpoint before the run is abandoned", async () => {
    const api = await startApiFixture([{ method: "GET", path: "/slow", answers: [{ status: 200, json: { ok: true }, delay_ms: 3_000 }] }]);
    expect(spawnSync(process.execPath, [stepgateBin(), "--keygen", join(dir, "keys")]).status).toBe(0);
    writeFileSync(join(dir, "slow.stepfile.yaml"), slowStepfile(api.origin));
    const ledgers = join(dir, "ledgers");
    const child = spawn(process.execPath, [stepgateBin(), "--ledger-dir", ledgers, "--signing-key", join(dir, "keys/stepgate-ledger.key"), join(dir, "slow.stepfile.yaml")], { stdio: ["pipe", "pipe", "pipe"] });
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    const replies = new Map<number, unknown>();
    const waiting = new Map<number, (r: unknown) => void>();
    createInterface({ input: child.stdout }).on("line", (line) => {
      const msg = JSON.parse(line) as { id?: number; result?: unknown };
      if (typeof msg.id === "number") {
        replies.set(msg.id, msg.result);
        waiting.get(msg.id)?.(msg.result);
      }
    });
    let next = 1;
    const send = (method: string, params: unknown) => {
      const id = next++;
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      return new Promise<unknown>((done) => (replies.has(id) ? done(replies.get(id)) : waiting.set(id, done)));
    };
    await send("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "shutdown-test", version: "1" } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    const started = (await send("tools/call", { name: "slow", arguments: {} })) as { structuredContent: { run: string } };
    const run = started.structuredContent.run;
    // The call waits 3 s on the API; close the pipe while it does.
    void send("tools/call", { name: "stepgate_call", arguments: { run, operation: "getSlow", arguments: {} } });
    await new Promise((r) => setTimeout(r, 500));
    child.stdin.end();
    expect(await exited).toBe(0);
    await api.close();

    const text = readFileSync(join(ledgers, readdirSync(ledgers)[0]!), "utf8");
    const records = text.trim().split("\n").map((l) => JSON.parse(l) as { type: string; reason?: string });
    const checkpoint = records.findIndex((r) => r.type === "checkpoint" && r.reason === "shutdown");
    const abandoned = records.findIndex((r) => r.type === "run_abandoned");
    expect(checkpoint).toBeGreaterThan(0);
    expect(abandoned).toBeGreaterThan(checkpoint);
    expect(verifyLedger(text)).toMatchObject({ status: "signed" });
    // Cut right after the checkpoint, the file is open but protected up to it.
    const cut = text.trim().split("\n").slice(0, checkpoint + 1).join("\n");
    expect(verifyLedger(cut)).toMatchObject({ status: "open", checkpoint });
  }, 120_000);
});
