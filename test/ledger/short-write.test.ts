// A write that stops midway (a disk that fills: write(2) takes part of the
// bytes, the next call fails with ENOSPC), acted out through the modules' own
// seams so it runs on any machine; test/cli/full-disk.test.ts does the same
// on a really full tmpfs through the built CLI where mounting one is allowed.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LedgerUnwritable, ServerBusy } from "../../src/errors.js";
import { chainedLedgers } from "../../src/ledger/chain.js";
import { GroupSync } from "../../src/ledger/group-sync.js";
import { fileSinks, nodeCreateCalls, type CreateCalls } from "../../src/ledger/sinks.js";
import { verifyLedger } from "../../src/ledger/verify.js";
import { writeWholeFile, type WholeFileCalls } from "../../src/whole-file.js";
import { harness } from "../engine/harness.js";

const enospc = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });

/** write(2) on a disk with `room` bytes left: takes what fits, then fails. */
function diskWithRoom(room: number): { write: (fd: number, bytes: Buffer, offset?: number, length?: number) => number } {
  return {
    write(fd, bytes, offset = 0, length = bytes.length - offset) {
      if (room === 0) throw enospc();
      const taken = writeSync(fd, bytes, offset, Math.min(length, room));
      room -= taken;
      return taken;
    },
  };
}

const folder = () => mkdtempSync(join(tmpdir(), "stepgate-short-write-"));

describe("writeWholeFile", () => {
  it("leaves the file as it was, and no temporary file, when the disk fills midway", () => {
    const dir = folder();
    const path = join(dir, "entry.json");
    writeFileSync(path, "before\n");
    const calls: WholeFileCalls = diskWithRoom(10);
    expect(() => writeWholeFile(path, "x".repeat(100), { calls })).toThrow(expect.objectContaining({ code: "ENOSPC" }));
    expect(readFileSync(path, "utf8")).toBe("before\n");
    expect(readdirSync(dir)).toEqual(["entry.json"]);
  });

  it("exclusive: never replaces a file, and a short write leaves no file at all", () => {
    const dir = folder();
    const taken = join(dir, "token");
    writeFileSync(taken, "theirs\n");
    expect(() => writeWholeFile(taken, "mine\n", { exclusive: true })).toThrow(expect.objectContaining({ code: "EEXIST" }));
    expect(readFileSync(taken, "utf8")).toBe("theirs\n");
    const fresh = join(dir, "fresh");
    expect(() => writeWholeFile(fresh, "y".repeat(50), { exclusive: true, calls: diskWithRoom(20) })).toThrow(expect.objectContaining({ code: "ENOSPC" }));
    expect(readdirSync(dir)).toEqual(["token"]);
    writeWholeFile(fresh, "whole\n", { exclusive: true, mode: 0o600 });
    expect(readFileSync(fresh, "utf8")).toBe("whole\n");
  });
});

describe("file sinks on a disk that fills", () => {
  const group = (dir: string) => new GroupSync(dir, { syncFile: async () => undefined, syncFolder: async () => undefined });

  it("cut a record written in part back off, throw LedgerUnwritable and tell the operator which file and record", () => {
    const dir = folder();
    const told: string[] = [];
    let room = Infinity;
    const calls: CreateCalls = {
      ...nodeCreateCalls,
      append: (fd, bytes) => {
        const disk = diskWithRoom(room);
        for (let written = 0; written < bytes.length; ) written += disk.write(fd, bytes, written);
      },
    };
    const sink = fileSinks(dir, group(dir), calls, (line) => told.push(line))("demo", "r1");
    sink.write('{"seq":0,"type":"run_started"}');
    room = 7;
    expect(() => sink.write('{"seq":1,"type":"step_started"}')).toThrow(LedgerUnwritable);
    const path = join(dir, "demo-r1.jsonl");
    expect(readFileSync(path, "utf8")).toBe('{"seq":0,"type":"run_started"}\n');
    expect(told).toEqual([`ledger ${path}: record 1 (step_started) could not be written (no space left on device (ENOSPC)); the file ends at the record before it`]);
  });

  it("refuse the run (ServerBusy, retryable, no path) when its first record cannot be written", () => {
    const dir = folder();
    const told: string[] = [];
    const calls: CreateCalls = {
      ...nodeCreateCalls,
      write: (fd, bytes) => {
        const disk = diskWithRoom(3);
        for (let written = 0; written < bytes.length; ) written += disk.write(fd, bytes, written);
      },
    };
    const sink = fileSinks(dir, group(dir), calls, (line) => told.push(line))("demo", "r2");
    let thrown: unknown;
    try {
      sink.write('{"seq":0,"type":"run_started"}');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ServerBusy);
    expect((thrown as ServerBusy).details).toMatchObject({ retryable: true });
    expect((thrown as Error).message).not.toContain(dir);
    expect(readdirSync(dir)).toEqual([]);
    expect(told[0]).toMatch(/record 0 \(run_started\) could not be written .*; the run was not started$/);
  });

  it("a run whose record does not fit stops with LedgerUnwritable; its run_failed follows the last whole record", async () => {
    const dir = folder();
    let full = false;
    const calls: CreateCalls = {
      ...nodeCreateCalls,
      append: (fd, bytes) => {
        if (full) {
          full = false;
          writeSync(fd, bytes, 0, 5);
          throw enospc();
        }
        for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
      },
    };
    const step = (id: string) => [`  - id: ${id}`, "    instructions: Say.", "    produces: { type: object }", "    gates:", "      - { id: any, schema: { type: object } }"];
    const yaml = ['stepgate: "1"', "id: demo", "description: d", "inputs: { type: object }", "steps:", ...step("a"), ...step("b"), ""].join("\n");
    const h = harness(yaml, undefined, undefined, undefined, { ledger: chainedLedgers(fileSinks(dir, group(dir), calls)) });
    const start = await h.start();
    full = true;
    const reply = await h.registry.submit(start.run, h.session, {});
    expect(reply).toMatchObject({ kind: "failed", state: "failed", error: { name: "LedgerUnwritable" } });
    expect(await h.registry.submit(start.run, h.session, {})).toMatchObject({ error: { name: "RunNotActive" } });
    const text = readFileSync(join(dir, `demo-${start.run}.jsonl`), "utf8");
    const records = text.trimEnd().split("\n").map((line) => JSON.parse(line) as { type: string; seq: number; error?: string });
    // The submit record met the full disk: gone whole, and the chain goes on from the record before it.
    expect(records.map((r) => r.type)).toEqual(["run_started", "step_started", "run_failed"]);
    expect(records.at(-1)).toMatchObject({ seq: 2, error: "LedgerUnwritable" });
    expect(verifyLedger(text).status).toBe("unsigned");
    expect(existsSync(join(dir, `.demo-${start.run}.jsonl.tmp`))).toBe(false);
  });
});
