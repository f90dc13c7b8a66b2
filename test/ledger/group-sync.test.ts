// Group commit (src/ledger/group-sync.ts) and the promise built on it: the
// reply that says a run ended is sent only after the run's closing record
// was fsynced. The sync calls are replaced by ones the test completes by
// hand, so the order of events is seen, not inferred from timing.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GroupSync, nodeSyncCalls, type SyncCalls } from "../../src/ledger/group-sync.js";
import { chainedLedgers } from "../../src/ledger/chain.js";
import { fileSinks } from "../../src/ledger/sinks.js";
import { loadStepfileText } from "../../src/loader/load.js";
import { RunRegistry } from "../../src/engine/registry.js";
import { emptyToolbox } from "../../src/engine/toolbox.js";
import { newSession } from "../../src/session.js";

/** Sync calls that wait until the test releases them, and log what happened in order. */
function heldCalls() {
  const log: string[] = [];
  const held: Array<{ what: string; done: (error?: Error) => void }> = [];
  const hold = (what: string) =>
    new Promise<void>((resolve, reject) => {
      log.push(`start ${what}`);
      held.push({ what, done: (error) => (log.push(`done ${what}`), error ? reject(error) : resolve()) });
    });
  const calls: SyncCalls = { syncFile: (path) => hold(`file ${path}`), syncFolder: () => hold("folder") };
  /** Completes every call started so far (failing those named in `failing`). */
  const release = (failing: string[] = []) => {
    for (const h of held.splice(0)) h.done(failing.includes(h.what) ? new Error(`EIO on ${h.what}`) : undefined);
  };
  return { calls, log, release, held };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("group sync", () => {
  it("resolves a sync only after its file's fsync completed", async () => {
    const h = heldCalls();
    const group = new GroupSync("/ledger", h.calls);
    let resolved = false;
    const done = group.sync("7").then(() => (resolved = true));
    await tick();
    expect(h.log).toEqual(["start file 7"]);
    expect(resolved).toBe(false);
    h.release();
    await done;
    expect(h.log).toEqual(["start file 7", "done file 7"]);
  });

  it("batches the runs that end while a batch is under way into the next one, with one folder sync", async () => {
    const h = heldCalls();
    const group = new GroupSync("/ledger", h.calls);
    const first = group.sync("1");
    await tick();
    // While file 1 syncs: two files are created and three runs end.
    group.created();
    group.created();
    const rest = [group.sync("2"), group.sync("3"), group.sync("4")];
    await tick();
    expect(h.held.map((x) => x.what)).toEqual(["file 1"]);
    h.release();
    await first;
    await tick();
    // The next batch: one folder sync for both new files, and the three files together.
    expect(h.held.map((x) => x.what)).toEqual(["folder", "file 2", "file 3", "file 4"]);
    h.release();
    await Promise.all(rest);
    await group.idle();
  });

  it("syncs the folder before answering for a file created before the call", async () => {
    const h = heldCalls();
    const group = new GroupSync("/ledger", h.calls);
    group.created();
    await tick();
    const ended = group.sync("5");
    let resolved = false;
    void ended.then(() => (resolved = true));
    await tick();
    h.release(); // the folder sync the creation started
    await tick();
    expect(resolved).toBe(false);
    h.release(); // file 5
    await ended;
    expect(h.log.indexOf("done folder")).toBeLessThan(h.log.indexOf("done file 5"));
  });

  it("rejects only the sync whose fsync failed, and keeps going", async () => {
    const h = heldCalls();
    const group = new GroupSync("/ledger", h.calls);
    const a = group.sync("1");
    const b = group.sync("2");
    await tick();
    h.release(["file 1"]);
    await expect(a).rejects.toThrow("EIO on file 1");
    await tick();
    h.release();
    await expect(b).resolves.toBeUndefined();
  });

  it("does not fail a run over a folder that cannot be synced", async () => {
    const group = new GroupSync("/ledger", { syncFile: nodeSyncCalls.syncFile, syncFolder: () => Promise.reject(new Error("EISDIR")) });
    const dir = mkdtempSync(join(tmpdir(), "stepgate-group-"));
    group.created();
    const sink = fileSinks(dir, group)("demo", "r1");
    sink.write('{"type":"run_finished"}');
    await expect(sink.durable!()).resolves.toBeUndefined();
  });
});

describe("a run's end and its reply", () => {
  const yaml = `stepgate: "1"
id: one
description: One step.
inputs: { type: object }
steps:
  - id: only
    instructions: Say something.
    produces: { type: object, required: [text], properties: { text: { type: string } } }
    gates:
      - { id: said, schema: { properties: { text: { minLength: 1 } } } }
`;

  it("is answered only after the run_finished record's file was fsynced", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stepgate-group-"));
    const h = heldCalls();
    const fds: string[] = [];
    // Real writes and real fsyncs, each fsync started only when the test says so.
    const calls: SyncCalls = {
      syncFile: (path) => (fds.push(path), h.calls.syncFile(path).then(() => nodeSyncCalls.syncFile(path))),
      syncFolder: (d) => h.calls.syncFolder(d).then(() => nodeSyncCalls.syncFolder(d)),
    };
    const registry = new RunRegistry({ limits: { callsPerStep: 10, toolResultChars: 1000 }, ledger: chainedLedgers(fileSinks(dir, new GroupSync(dir, calls))), newRunId: () => "r1", openToolbox: async () => emptyToolbox }, 60_000);
    const session = newSession("s");
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 1000 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const started = await registry.start(loadStepfileText(yaml, "one.stepfile.yaml"), {}, session);
    expect(started.kind).toBe("step");
    // The new file's folder entry is being synced in the background; the start reply did not wait for it.
    await until(() => h.held.length > 0);
    expect(h.log).toEqual(["start folder"]);
    h.release();
    let replied = false;
    const reply = registry.submit("r1", session, { text: "hi" }).then((r) => ((replied = true), r));
    await until(() => fds.length > 0);
    // The record is written (a killed process keeps it) but its fsync has not completed: no reply yet.
    expect(readFileSync(join(dir, "one-r1.jsonl"), "utf8")).toMatch(/"type":"run_finished"/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(replied).toBe(false);
    h.release();
    expect((await reply).kind).toBe("finished");
    expect(h.log).toEqual(["start folder", "done folder", `start file ${fds[0]}`, `done file ${fds[0]}`]);
  });
});
