// A really full disk under everything the built CLI writes (issue 29): a
// small tmpfs (test/support/small-disk.ts) filled to leave one page or none,
// so a write larger than the room left is a real short write followed by
// ENOSPC. Nothing is ever renamed into place partly written, and no ledger
// record is lost without a word: the load cache keeps no entry (and writes
// one once there is room), a run's ledger is cut back to its last whole
// record and the run stops with LedgerUnwritable (a new run is refused with
// ServerBusy), `new:<file>` leaves no token file (so the same command works
// once there is room), --record-cases, --from-arazzo's --out, --keygen and
// --show --html leave no file (or the old one as it was) and say so.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { verifyLedger } from "../../src/ledger/verify.js";
import { startCliServer } from "../http/fixtures/cli-server.js";
import { connectClient } from "../http/fixtures/harness.js";
import { budget } from "../support/budget.js";
import { cli } from "../support/cli-exec.js";
import { REPO_ROOT, stepgateBin } from "../support/paths.js";
import { PAGE, smallDisk, type SmallDisk } from "../support/small-disk.js";

const work = mkdtempSync(join(tmpdir(), "stepgate-full-disk-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const probe = smallDisk(64 * 1024);
const unavailable = typeof probe === "string" ? probe : undefined;
if (typeof probe !== "string") probe.unmount();

/** A fresh 64 KiB disk for one test, unmounted after it. */
async function withDisk(test: (disk: SmallDisk) => Promise<void>): Promise<void> {
  const disk = smallDisk(64 * 1024);
  if (typeof disk === "string") throw new Error(disk);
  try {
    await test(disk);
  } finally {
    disk.unmount();
  }
}

/** Every file under `dir` but the filler, relative to it. */
function filesIn(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .filter((name) => !name.startsWith("filler/"))
    .sort();
}

// Twenty gates whose predicates explain nothing: twenty warnings, a cache entry of about 7.5 KB (two pages).
const MANY = join(work, "many.stepfile.yaml");
writeFileSync(
  MANY,
  [
    'stepgate: "1"',
    "id: many",
    "description: Twenty gates that explain nothing.",
    "inputs: { type: object, required: [name], properties: { name: { type: string } } }",
    "steps:",
    "  - id: hello",
    '    instructions: "Greet {{inputs.name}}."',
    "    produces: { type: object, required: [greeting], properties: { greeting: { type: string } } }",
    "    retries: 5",
    "    gates:",
    ...Array.from({ length: 20 }, (_, i) => `      - { id: g${i}, message: the greeting must contain the name, predicate: { in: [{ var: inputs.name }, { var: output.greeting }] } }`),
    "",
  ].join("\n"),
);
const ONE = join(REPO_ROOT, "test/fixtures/one-open-step.stepfile.yaml");

const run = promisify(execFile);

/** The CLI serving over stdio with standard input closed at once: it loads, keeps its loads, and ends. */
async function serveAndEnd(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const child = run(process.execPath, [stepgateBin(), ...args], { env: { PATH: process.env.PATH ?? "", HOME: join(work, "home"), ...env } });
  child.child.stdin?.end();
  try {
    const { stderr } = await child;
    return { code: 0, stderr };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

interface ToolReply {
  content: Array<{ text: string }>;
  structuredContent: { run: string; state: string; error?: string };
}

describe.skipIf(unavailable !== undefined)(`a really full disk${unavailable ? ` (skipped: ${unavailable})` : ""}`, () => {
  it("the load cache: an entry that does not fit is never renamed into place; with room again it is written whole", async () => {
    await withDisk(async (disk) => {
      const env = { XDG_CACHE_HOME: disk.dir };
      const ledgers = join(work, "cache-ledgers");
      // One page left: the entry (two pages) is written in part, then ENOSPC.
      disk.fill(PAGE);
      const full = await serveAndEnd(["--ledger-dir", ledgers, MANY], env);
      expect(full.stderr).not.toMatch(/internal error|ENOSPC/);
      expect(full.code).toBe(0);
      expect(full.stderr.match(/warning: .*has no explain/g)).toHaveLength(20);
      expect(filesIn(disk.dir)).toEqual([]);
      disk.free();
      const roomy = await serveAndEnd(["--ledger-dir", ledgers, MANY], env);
      expect(roomy.code).toBe(0);
      const entries = filesIn(disk.dir);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatch(/^stepgate\/loads\/[^/]+\/[0-9a-f]{64}\.json$/);
      // Written whole: the next start is a hit and prints the same warnings.
      const hit = await serveAndEnd(["--ledger-dir", ledgers, MANY], env);
      expect(hit.stderr).toBe(roomy.stderr);
    });
  }, budget({ starts: 2 }));

  it("a ledger: the record that does not fit is cut off, the run stops with LedgerUnwritable and the operator is told; a new run gets ServerBusy", async () => {
    await withDisk(async (disk) => {
      const ledgers = join(disk.dir, "ledgers");
      const server = await startCliServer(["--ledger-dir", ledgers, MANY]);
      try {
        const client = await connectClient(server.url);
        const started = (await client.callTool({ name: "many", arguments: { name: "Ann" } })) as ToolReply;
        const runId = started.structuredContent.run;
        expect(started.structuredContent.state).toBe("running");
        // No page left: records go on filling the ledger's own page, until one crosses its end.
        disk.fill(0);
        let reply: ToolReply | undefined;
        for (let attempt = 0; attempt < 6; attempt++) {
          reply = (await client.callTool({ name: "stepgate_submit", arguments: { run: runId, output: { greeting: "hello" } } })) as ToolReply;
          if (reply.structuredContent.state !== "running") break;
        }
        expect(reply!.structuredContent).toMatchObject({ state: "failed", error: "LedgerUnwritable" });
        expect(reply!.content[0]!.text).toMatch(/^LedgerUnwritable: .*no space left on device/);
        expect(reply!.content[0]!.text).not.toContain(disk.dir);
        const again = (await client.callTool({ name: "stepgate_submit", arguments: { run: runId, output: { greeting: "Ann" } } })) as ToolReply;
        expect(again.structuredContent.error).toBe("RunNotActive");
        // A run that cannot write its first record is not started.
        const refused = (await client.callTool({ name: "many", arguments: { name: "Bo" } })) as ToolReply;
        expect(refused.structuredContent.error).toBe("ServerBusy");
        expect(refused.content[0]!.text).toMatch(/cannot write ledgers for now \(no space left on device \(ENOSPC\)\).*try again later/);
        expect(refused.content[0]!.text).not.toContain(disk.dir);

        const file = join(ledgers, readdirSync(ledgers).find((name) => name.includes(runId))!);
        const text = readFileSync(file, "utf8");
        // Whole records only: the file ends with a newline and every line is a record.
        expect(text.endsWith("\n")).toBe(true);
        const records = text.trimEnd().split("\n").map((line) => JSON.parse(line) as { seq: number; type: string; error?: string });
        expect(["open", "unsigned"]).toContain(verifyLedger(text).status);
        const last = records.at(-1)!;
        if (last.type === "run_failed") expect(last.error).toBe("LedgerUnwritable");
        else expect(last.type).not.toMatch(/^run_/);
        // The operator reads which file lost which record.
        const lost = last.type === "run_failed" ? last.seq : last.seq + 1;
        expect(server.stderr()).toContain(`ledger ${file}: record ${lost} (`);
        expect(server.stderr()).toMatch(/could not be written \(no space left on device \(ENOSPC\)\); the file ends at the record before it/);
        expect(readdirSync(ledgers).filter((name) => name.endsWith(".tmp"))).toEqual([]);

        // With room again, runs start and finish.
        disk.free();
        const next = (await client.callTool({ name: "many", arguments: { name: "Cy" } })) as ToolReply;
        const done = (await client.callTool({ name: "stepgate_submit", arguments: { run: next.structuredContent.run, output: { greeting: "hello Cy" } } })) as ToolReply;
        expect(done.structuredContent.state).toBe("finished");
      } finally {
        await server.stop();
      }
      expect(server.child.exitCode).toBe(0);
      expect(server.stderr()).not.toMatch(/internal error/);
    });
  }, budget({ starts: 1, replies: 12 }));

  it("new:<file>: no room leaves no token file, so the same command works once there is room", async () => {
    await withDisk(async (disk) => {
      const tokenFile = join(disk.dir, "token");
      const args = ["--http-token-file", `new:${tokenFile}`, ONE];
      disk.fill(0);
      const refused = await startCliServer(args).then(
        async (server) => (await server.stop(), "listening"),
        (error: Error) => error.message,
      );
      expect(refused).toContain("stepgate exited (1) before listening");
      expect(refused).toContain(`--http-token-file ${tokenFile} cannot be written (no space left on device (ENOSPC)); nothing was written there`);
      expect(filesIn(disk.dir)).toEqual([]);
      disk.free();
      const server = await startCliServer(args);
      await server.stop();
      expect(server.child.exitCode).toBe(0);
      expect(readFileSync(tokenFile, "utf8")).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
    });
  }, budget({ starts: 2 }));

  it("--record-cases: a cases file that does not fit is not left half written; the run is unaffected", async () => {
    await withDisk(async (disk) => {
      const cases = join(disk.dir, "cases");
      const server = await startCliServer(["--ledger-dir", join(work, "cases-ledgers"), "--record-cases", cases, ONE]);
      try {
        const client = await connectClient(server.url);
        // The output alone is three pages; one is left.
        const text = "x".repeat(3 * PAGE);
        disk.fill(PAGE);
        const first = (await client.callTool({ name: "one", arguments: {} })) as ToolReply;
        const finished = (await client.callTool({ name: "stepgate_submit", arguments: { run: first.structuredContent.run, output: { text } } })) as ToolReply;
        expect(finished.structuredContent.state).toBe("finished");
        await expect.poll(() => server.stderr()).toMatch(/could not write .*\.cases\.yaml \(no space left on device \(ENOSPC\)\); the run itself is unaffected/);
        expect(filesIn(disk.dir)).toEqual([]);
        disk.free();
        const second = (await client.callTool({ name: "one", arguments: {} })) as ToolReply;
        await client.callTool({ name: "stepgate_submit", arguments: { run: second.structuredContent.run, output: { text } } });
        await expect.poll(() => filesIn(disk.dir)).toHaveLength(1);
        const recorded = parse(readFileSync(join(disk.dir, filesIn(disk.dir)[0]!), "utf8")) as { cases: Array<{ steps: Array<{ output: { text: string } }> }> };
        expect(recorded.cases[0]!.steps[0]!.output.text).toBe(text);
      } finally {
        await server.stop();
      }
      expect(server.child.exitCode).toBe(0);
    });
  }, budget({ starts: 1, replies: 6 }));

  it("--show --html: a page that does not fit is never left in part; the old page stays as it was", async () => {
    await withDisk(async (disk) => {
      const page = join(disk.dir, "runs.html");
      // Files that are not there are shown too, each with its verdict: under one page, then two.
      const first = await cli("--show", "--html", page, join(work, "a.jsonl"));
      expect(first.stderr).toBe("");
      const old = readFileSync(page, "utf8");
      expect(Buffer.byteLength(old)).toBeLessThan(PAGE);
      const ledgers = Array.from({ length: 6 }, (_, i) => join(work, `missing-${i}.jsonl`));
      // No room but the old page's own: written in place, its truncation would free that page for part of the new one.
      disk.fill(0);
      const full = await cli("--show", "--html", page, ...ledgers);
      expect(full.code).toBe(1);
      expect(full.stderr).toBe(`stepgate: cannot write ${page} (no space left on device (ENOSPC)); nothing was written there\n`);
      expect(filesIn(disk.dir)).toEqual(["runs.html"]);
      expect(readFileSync(page, "utf8")).toBe(old);
      disk.free();
      const roomy = await cli("--show", "--html", page, ...ledgers);
      expect(roomy.stdout).toBe(`${page}: 6 runs, 6 that did not verify\n`);
      expect(Buffer.byteLength(readFileSync(page, "utf8"))).toBeGreaterThan(PAGE);
    });
  }, budget({ starts: 3 }));

  it("--from-arazzo --out and --keygen: a file that does not fit is not left behind, and the command says so", async () => {
    await withDisk(async (disk) => {
      const out = join(disk.dir, "out");
      const arazzo = join(REPO_ROOT, "test/arazzo/fixtures/buy-pet.arazzo.yaml");
      // The stepfile is about three pages; one is left.
      disk.fill(PAGE);
      const full = await cli("--from-arazzo", arazzo, "--out", out);
      expect(full.code).toBe(1);
      expect(full.stderr).toContain(`could not write ${join(out, "buyPet.stepfile.yaml")} (no space left on device (ENOSPC)); nothing was written there`);
      expect(filesIn(disk.dir)).toEqual([]);
      const keys = join(disk.dir, "keys");
      disk.fill(0);
      const keygen = await cli("--keygen", keys);
      expect(keygen.code).toBe(1);
      expect(keygen.stderr).toMatch(/cannot write .* \(no space left on device \(ENOSPC\)\)/);
      expect(filesIn(disk.dir)).toEqual([]);
      disk.free();
      expect((await cli("--from-arazzo", arazzo, "--out", out)).code).toBe(0);
      expect(existsSync(join(out, "buyPet.stepfile.yaml"))).toBe(true);
      expect((await cli("--keygen", keys)).code).toBe(0);
      expect(filesIn(keys).length).toBe(2);
    });
  }, budget({ starts: 4 }));
});
