// Issue 22: a ledger file is created together with its first record, so a
// process killed anywhere in between leaves no ledger file or a valid one,
// never an empty one that --verify called "unreadable". The crash window is
// tested deterministically: the file system calls that create the file are
// replaced by the real ones followed by a "kill" after the n-th, and what is
// left on disk is read as --verify reads it. The same kill against the old
// way (open the ledger's own name, then write) shows the empty file the
// test would catch, and that --verify now reads as open with no records.
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { chainedLedgers } from "../../src/ledger/chain.js";
import { GroupSync } from "../../src/ledger/group-sync.js";
import { fileSinks, memorySinks, nodeCreateCalls, type CreateCalls } from "../../src/ledger/sinks.js";
import { verifyLedger } from "../../src/ledger/verify.js";

const root = mkdtempSync(join(tmpdir(), "stepgate-create-window-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

class Killed extends Error {}

/** The real calls, but the process "dies" right after call number `after` (1-based) returns. */
function dyingAfter(after: number): CreateCalls {
  let made = 0;
  const step = <T>(result: T): T => {
    if (++made === after) throw new Killed(`killed after call ${after}`);
    return result;
  };
  return {
    openNew: (path) => step(nodeCreateCalls.openNew(path)),
    write: (fd, bytes) => step(nodeCreateCalls.write(fd, bytes)),
    rename: (from, to) => step(nodeCreateCalls.rename(from, to)),
  };
}

/** A real run_started record, chained and canonical as the server writes it. */
function firstRecord(): string {
  const lines = memorySinks();
  chainedLedgers(lines)("demo", "r1").append("run_started", { stepfile_hash: `sha256:${"0".repeat(64)}`, inputs_hash: `sha256:${"0".repeat(64)}` } as never);
  return lines.store.get("demo-r1")![0]!;
}

/** What a ledger folder holds after a kill, as --verify would see each .jsonl file. */
function ledgerVerdicts(dir: string) {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => verifyLedger(readFileSync(join(dir, name), "utf8")));
}

describe("creating a ledger file with its first record", () => {
  const record = firstRecord();

  it("leaves no ledger file or one holding the whole first record, wherever the process dies", () => {
    for (const after of [1, 2, 3]) {
      const dir = join(root, `kill-${after}`);
      // A sync that never runs: the group commit is not what is under test.
      const sink = fileSinks(dir, new GroupSync(dir, { syncFile: async () => undefined, syncFolder: async () => undefined }), dyingAfter(after))("demo", "r1");
      expect(() => sink.write(record)).toThrow(Killed);
      const verdicts = ledgerVerdicts(dir);
      if (after < 3) expect(verdicts).toEqual([]);
      else expect(verdicts).toEqual([{ status: "open", records: 1, checkpoint: null, key: null }]);
      for (const verdict of verdicts) expect(verdict.status).not.toBe("unreadable");
    }
  });

  it("writes the record under the ledger's name, and nothing else, when nothing goes wrong", () => {
    const dir = join(root, "whole");
    const sink = fileSinks(dir)("demo", "r1");
    sink.write(record);
    expect(readdirSync(dir)).toEqual(["demo-r1.jsonl"]);
    expect(readFileSync(join(dir, "demo-r1.jsonl"), "utf8")).toBe(`${record}\n`);
  });

  it("an empty file made the old way (the ledger's own name opened, then killed before the write) reads as open with no records", () => {
    const dir = join(root, "old-way");
    const sink = fileSinks(dir)("demo", "r0");
    sink.write(record);
    const path = join(dir, "demo-r1.jsonl");
    closeSync(openSync(path, "a"));
    const verdicts = ledgerVerdicts(dir);
    expect(verdicts).toContainEqual({ status: "open", records: 0, checkpoint: null, key: null });
  });
});
