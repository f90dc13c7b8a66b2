// Open runs are bounded, and ending many at once loses no record. The built
// CLI over HTTP, driven by the SDK's client: 2,000 runs left open in one
// session are ended by DELETE, or by SIGTERM, under a low descriptor limit
// (`ulimit -n` in the shell that starts it), and the process exits 0 with
// every ledger closed by run_abandoned. With small caps, a start past
// --max-runs-per-session or --max-runs is refused with ServerBusy on both
// protocol eras, and the refusal names no path.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, it } from "vitest";
import { verifyLedger } from "../../src/ledger/verify.js";
import { PROCESS_START_MS } from "../support/budget.js";
import { REPO_ROOT, stepgateBin } from "../support/paths.js";
import { connectClient, httpTransportOf } from "./fixtures/harness.js";

const dir = mkdtempSync(join(tmpdir(), "stepgate-many-runs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STEPFILE = join(REPO_ROOT, "test/fixtures/one-open-step.stepfile.yaml");

interface Served {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr(): string;
}

/** `stepgate --http 0` started from a shell that first lowers the descriptor limit to `files`. */
function serve(args: string[], files = 256): Promise<Served> {
  const command = `ulimit -n ${files} && exec "${process.execPath}" "${stepgateBin()}" --http 0 "$@"`;
  const child = spawn("sh", ["-c", command, "sh", ...args], { stdio: ["ignore", "ignore", "pipe"] });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  let err = "";
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no listening line: ${err}`)), PROCESS_START_MS);
    child.stderr!.on("data", (chunk: Buffer) => {
      err += chunk.toString("utf8");
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (match) {
        clearTimeout(timer);
        ok({ url: match[1]!, child, exited, stderr: () => err });
      }
    });
    void exited.then((code) => fail(new Error(`exited ${code} before listening: ${err}`)));
  });
}

interface Started {
  run?: string;
  error?: string;
  text: string;
}

async function startRun(client: Client): Promise<Started> {
  const result = (await client.callTool({ name: "one", arguments: {} })) as { content: Array<{ text: string }>; structuredContent: { run: string; error?: string } };
  const text = result.content[0]!.text;
  return result.structuredContent.error ? { error: result.structuredContent.error, text } : { run: result.structuredContent.run, text };
}

/** `count` runs started by `client`, `concurrency` calls at a time. */
async function startRuns(client: Client, count: number, concurrency = 16): Promise<Started[]> {
  const out: Started[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        out.push(await startRun(client));
      }
    }),
  );
  return out;
}

/** Every ledger in `ledgers`, as its records' types and the abandonment's reason. */
function ledgerEnds(ledgers: string) {
  return readdirSync(ledgers)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => {
      const text = readFileSync(join(ledgers, name), "utf8");
      const records = text.trim().split("\n").map((line) => JSON.parse(line) as { type: string; reason?: string });
      return { name, last: records.at(-1)!, verdict: verifyLedger(text).status };
    });
}

describe("2,000 open runs in one session, under `ulimit -n 256`", () => {
  for (const ending of ["DELETE", "SIGTERM"] as const) {
    it(`ended by ${ending}: exit 0, every ledger closed with run_abandoned`, async () => {
      const ledgers = join(dir, `ledgers-${ending}`);
      const server = await serve(["--ledger-dir", ledgers, "--max-runs-per-session", "2000", STEPFILE]);
      const client = await connectClient(server.url);
      const started = await startRuns(client, 2000);
      expect(started.filter((s) => s.error)).toEqual([]);
      if (ending === "DELETE") {
        await httpTransportOf(client).terminateSession();
        // The DELETE is answered once every run_abandoned is written, before any SIGTERM.
        const closed = ledgerEnds(ledgers);
        expect(closed).toHaveLength(2000);
        expect(closed.filter((e) => e.last.type !== "run_abandoned" || e.last.reason !== "session_closed")).toEqual([]);
      }
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      expect(server.stderr()).not.toMatch(/internal error|EMFILE/);
      const ends = ledgerEnds(ledgers);
      expect(ends).toHaveLength(2000);
      // Runs the DELETE ended read as closed with their session; runs open at SIGTERM, as closed with the server (the seed's reasons).
      const reason = ending === "DELETE" ? "session_closed" : "server_closed";
      expect(ends.filter((e) => e.last.type !== "run_abandoned" || e.last.reason !== reason || e.verdict !== "unsigned")).toEqual([]);
    }, 300_000);
  }
});

describe("the caps on open runs", () => {
  it("refuse a start past --max-runs-per-session and --max-runs with ServerBusy, on both eras, naming no path", async () => {
    const ledgers = join(dir, "ledgers-caps");
    const server = await serve(["--ledger-dir", ledgers, "--max-runs", "5", "--max-runs-per-session", "2", STEPFILE], 1024);
    try {
      const first = await connectClient(server.url);
      const inFirst = await startRuns(first, 3, 1);
      expect(inFirst.map((s) => s.error ?? "run")).toEqual(["run", "run", "ServerBusy"]);
      expect(inFirst[2]!.text).toMatch(/--max-runs-per-session/);
      // Every 2026-07-28 client shares one session, so its cap counts them together.
      const modern = [await connectClient(server.url, "modern"), await connectClient(server.url, "modern")];
      const inModern = [await startRun(modern[0]!), await startRun(modern[1]!), await startRun(modern[0]!)];
      expect(inModern.map((s) => s.error ?? "run")).toEqual(["run", "run", "ServerBusy"]);
      // Four open: one more fits the server's cap of five, then none.
      const third = await connectClient(server.url);
      const inThird = await startRuns(third, 2, 1);
      expect(inThird.map((s) => s.error ?? "run")).toEqual(["run", "ServerBusy"]);
      expect(inThird[1]!.text).toMatch(/--max-runs\b/);
      for (const refused of [inFirst[2]!, inModern[2]!, inThird[1]!]) {
        expect(refused.text).toMatch(/try again later/);
        expect(refused.text).not.toContain(dir);
      }
      // A run that ends makes room.
      const run = inFirst[0]!.run!;
      await first.callTool({ name: "stepgate_submit", arguments: { run, output: { text: "done" } } });
      expect((await startRun(third)).error).toBeUndefined();
      // Refused starts wrote nothing: one ledger per run started.
      expect(ledgerEnds(ledgers)).toHaveLength(6);
    } finally {
      server.child.kill("SIGTERM");
    }
    expect(await server.exited).toBe(0);
    // Open at SIGTERM, in a 2025 session or the shared 2026-07-28 one: abandoned because the server closed.
    expect(ledgerEnds(ledgers).filter((e) => e.last.type !== "run_finished" && (e.last.type !== "run_abandoned" || e.last.reason !== "server_closed"))).toEqual([]);
  }, 120_000);
});

/** Descriptors the process holds now (Linux). */
const descriptors = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

describe.skipIf(process.platform !== "linux")("out of file descriptors (idle connections hold them all)", () => {
  it("a new run gets ServerBusy, retryable, with no path; a run's later record waits and is written in order", async () => {
    const ledgers = join(dir, "ledgers-emfile");
    const server = await serve(["--ledger-dir", ledgers, STEPFILE], 128);
    const pid = server.child.pid!;
    const port = Number(new URL(server.url).port);
    const sockets: Socket[] = [];
    try {
      const client = await connectClient(server.url);
      const open = await startRun(client);
      expect(open.error).toBeUndefined();
      // Connections until the server has no descriptor left (it sheds those it cannot accept).
      for (let held = descriptors(pid), grew = true; grew; ) {
        sockets.push(...Array.from({ length: 16 }, () => connect(port, "127.0.0.1").on("error", () => undefined)));
        await new Promise((resolve) => setTimeout(resolve, 100));
        const now = descriptors(pid);
        grew = now > held;
        held = now;
      }
      expect(descriptors(pid)).toBeGreaterThanOrEqual(127);
      const refused = await startRun(client);
      expect(refused.error).toBe("ServerBusy");
      expect(refused.text).toMatch(/out of file descriptors.*try again later/);
      expect(refused.text).not.toContain(dir);
      expect(refused.text).not.toMatch(/EMFILE/);
      // The open run's closing records wait for a descriptor; its reply waits for them.
      let replied = false;
      const submitted = client.callTool({ name: "stepgate_submit", arguments: { run: open.run, output: { text: "done" } } }).then((r) => ((replied = true), r));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(replied).toBe(false);
      for (const socket of sockets.splice(0)) socket.destroy();
      expect(((await submitted) as { structuredContent: { state: string } }).structuredContent.state).toBe("finished");
      expect((await startRun(client)).error).toBeUndefined();
    } finally {
      for (const socket of sockets) socket.destroy();
      server.child.kill("SIGTERM");
    }
    expect(await server.exited).toBe(0);
    const ends = ledgerEnds(ledgers);
    expect(ends.map((e) => `${e.last.type} ${e.verdict}`).sort()).toEqual(["run_abandoned unsigned", "run_finished unsigned"]);
  }, 120_000);
});
