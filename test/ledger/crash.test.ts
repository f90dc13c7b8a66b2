// Issue 12, a crash-consistent ledger: a real `stepgate --http` serving many
// concurrent runs is killed with SIGKILL at a random moment; every ledger
// file it leaves must be whole records only, and `stepgate --verify` must
// accept every one as a valid prefix of its chain. And the durability
// promise: every run whose reply said it finished has its run_finished
// record in its file (the reply is sent only after the record's sync).
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { repoRoot, startCliServer, stepgateBin } from "../http/fixtures/cli-server.js";

const run = promisify(execFile);
const greet = join(repoRoot, "test/fixtures/greet.stepfile.yaml");

/** Drives runs of greet back to back until the server goes away. */
const progress = { submits: 0, finished: [] as string[] };

async function keepRunning(url: string, stopped: () => boolean, opened: Client[]): Promise<number> {
  let submits = 0;
  try {
    const client = new Client({ name: "crash-load", version: "0" });
    opened.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    while (!stopped()) {
      const first = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
      const runId = (first.structuredContent as { run: string }).run;
      for (const output of [{ greeting: "Hi" }, { greeting: "Hello, Ada" }, { signature: "S" }]) {
        const reply = await client.callTool({ name: "stepgate_submit", arguments: { run: runId, output } });
        submits++;
        progress.submits++;
        if ((reply.structuredContent as { state?: string }).state === "finished") progress.finished.push(runId);
      }
    }
  } catch {
    // The server was killed under us: that is the point.
  }
  return submits;
}

describe("SIGKILL under load", () => {
  it("leaves every ledger file a verifiable prefix, at random kill points", { timeout: 240_000 }, async () => {
    const rounds = 2;
    const killedAfter: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const dir = mkdtempSync(join(tmpdir(), "stepgate-crash-"));
      const server = await startCliServer(["--ledger-dir", dir, greet]);
      let killed = false;
      progress.submits = 0;
      progress.finished = [];
      const opened: Client[] = [];
      const clients = Array.from({ length: 8 }, () => keepRunning(server.url, () => killed, opened));
      // Under load first (a slow machine takes a while to connect 8 clients), then a random moment.
      while (progress.submits < 8 || progress.finished.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      const delay = Math.floor(Math.random() * 1_500);
      killedAfter.push(delay);
      await new Promise((resolve) => setTimeout(resolve, delay));
      server.child.kill("SIGKILL");
      killed = true;
      await server.stop();
      // A call in flight when the server died is not failed by the SDK's
      // client until its 60 s request timeout (seen under load on
      // 2026-12-02: every round waited 60 s after the kill; its resuming of
      // a cut stream is the likely cause); closing each client fails it at once.
      await Promise.all(opened.map((client) => client.close().catch(() => undefined)));
      await Promise.all(clients);

      const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
      expect(files.length, `round ${round} (killed ${delay} ms into the load) wrote no ledger`).toBeGreaterThan(0);
      // Every run the client was told had finished is finished in its ledger.
      expect(progress.finished.length, `round ${round}: no run finished before the kill`).toBeGreaterThan(0);
      for (const runId of progress.finished) {
        const file = files.find((f) => f.endsWith(`-${runId}.jsonl`));
        expect(file, `run ${runId} was reported finished but has no ledger file`).toBeDefined();
        expect(readFileSync(join(dir, file!), "utf8")).toMatch(/"type":"run_finished"/);
      }
      for (const file of files) {
        const text = readFileSync(join(dir, file), "utf8");
        // Whole records only: the file ends with a newline and every line parses.
        expect(text.endsWith("\n")).toBe(true);
        for (const line of text.trimEnd().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
      }
      // A killed run has no closing record, so --verify exits 1 calling it open; what matters is that
      // every file is an intact prefix: closed (unsigned, no key here) or open, never tampered or unreadable.
      const verified = await run(process.execPath, [stepgateBin, "--verify", "--json", ...files.map((f) => join(dir, f))]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
      const verdicts = (JSON.parse(verified.stdout) as { files: Array<{ verdict: { status: string } }> }).files.map((f) => f.verdict.status);
      expect(verdicts).toHaveLength(files.length);
      for (const status of verdicts) expect(["unsigned", "open"]).toContain(status);
    }
    expect(killedAfter).toHaveLength(rounds);
  });
});
