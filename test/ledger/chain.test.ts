import { describe, expect, it } from "vitest";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chainedLedgers, LedgerChain } from "../../src/ledger/chain.js";
import { loadSigner } from "../../src/ledger/signing.js";
import { memorySinks } from "../../src/ledger/sinks.js";
import { describeVerdict, verifyLedger } from "../../src/ledger/verify.js";
import { canonicalJson, sha256 } from "../../src/format/identity.js";

function ledger(run = "r1") {
  const lines: string[] = [];
  const chain = new LedgerChain(run, "demo", { write: (l) => void lines.push(l) }, () => new Date("2026-11-30T10:00:00Z"));
  chain.append("run_started", { identity: "sha256:00", inputs_hash: "sha256:11" });
  chain.append("step_started", { step: "a", attempt: 1 });
  chain.append("submit", { step: "a", attempt: 1, output_hash: "sha256:22", output_length: 2 });
  chain.append("gate", { step: "a", attempt: 1, gate: "g", kind: "predicate", verdict: "pass", diagnosis_hash: null });
  chain.append("step_passed", { step: "a", attempt: 1 });
  chain.append("run_finished", { outcome: "finished", outputs_hash: "sha256:33" });
  return lines;
}

describe("the ledger chain", () => {
  it("stores each record as its RFC 8785 form, seq from 0, prev the hash of the previous record", () => {
    const lines = ledger();
    const records = lines.map((l) => JSON.parse(l));
    expect(records.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(records[0].prev).toBeNull();
    for (let i = 1; i < lines.length; i++) expect(records[i].prev).toBe(sha256(lines[i - 1]!));
    for (const [i, line] of lines.entries()) expect(canonicalJson(records[i])).toBe(line);
    expect(records[0]).toMatchObject({ run: "r1", stepfile: "demo", type: "run_started", at: "2026-11-30T10:00:00.000Z" });
  });

  it("verifies an untouched ledger", () => {
    expect(verifyLedger(`${ledger().join("\n")}\n`)).toEqual({ status: "unsigned", records: 6 });
  });

  it("names the first seq that does not follow after an edit", () => {
    const lines = ledger();
    lines[2] = lines[2]!.replace('"output_length":2', '"output_length":3');
    expect(verifyLedger(lines.join("\n"))).toMatchObject({ status: "tampered", seq: 3 });
  });

  it("names the first seq that does not follow after reordering or removing a record", () => {
    const lines = ledger();
    expect(verifyLedger([lines[0], lines[2], lines[1], ...lines.slice(3)].join("\n"))).toMatchObject({ status: "tampered", seq: 2 });
    expect(verifyLedger([...lines.slice(0, 3), ...lines.slice(4)].join("\n"))).toMatchObject({ status: "tampered", seq: 4 });
  });

  it("refuses a record from another run even with a matching chain position", () => {
    const mine = ledger("r1");
    const theirs = ledger("r2");
    expect(verifyLedger([...mine.slice(0, 3), theirs[3], ...mine.slice(4)].join("\n"))).toMatchObject({ status: "tampered", seq: 3 });
  });

  it("refuses a ledger that does not start at seq 0, or is not JSON", () => {
    expect(verifyLedger(ledger().slice(1).join("\n"))).toMatchObject({ status: "tampered", seq: 1 });
    expect(verifyLedger("not json\n")).toMatchObject({ status: "tampered", line: 1 });
  });

  it("reads an empty file as open with no records (a name whose first record never reached the disk)", () => {
    const verdict = verifyLedger("");
    expect(verdict).toEqual({ status: "open", records: 0, checkpoint: null, key: null });
    expect(describeVerdict(verdict)).toBe("open, no records: the file is empty (the server stopped before the run's first record reached the disk)");
  });
});

describe("signed chains", () => {
  const signer = () => {
    const dir = mkdtempSync(join(tmpdir(), "stepgate-chain-keys-"));
    const { privateKey } = generateKeyPairSync("ed25519");
    writeFileSync(join(dir, "k.pem"), privateKey.export({ type: "pkcs8", format: "pem" }));
    return loadSigner(join(dir, "k.pem"));
  };

  it("signs a checkpoint after every N records, the closing record, and open runs at shutdown only", () => {
    const sink = memorySinks();
    const ledgers = chainedLedgers(sink, () => new Date("2026-11-30T10:00:00Z"), { signer: signer(), checkpointEvery: 2 });
    const open = ledgers("demo", "open");
    const done = ledgers("demo", "done");
    for (const chain of [open, done]) {
      chain.append("run_started", { identity: "sha256:00", inputs_hash: "sha256:11" });
      chain.append("step_started", { step: "a", attempt: 1 });
      chain.append("submit", { step: "a", attempt: 1, output_hash: "sha256:22", output_length: 2 });
    }
    done.append("run_finished", { outcome: "finished", outputs_hash: "sha256:33" });
    ledgers.checkpointOpen();
    ledgers.checkpointOpen(); // the last record is signed already: nothing more
    const types = (run: string) => sink.store.get(`demo-${run}`)!.map((l) => (JSON.parse(l) as { type: string; reason?: string }).reason ?? (JSON.parse(l) as { type: string }).type);
    expect(types("open")).toEqual(["run_started", "step_started", "interval", "submit", "shutdown"]);
    expect(types("done")).toEqual(["run_started", "step_started", "interval", "submit", "run_finished"]);
    expect(verifyLedger(sink.store.get("demo-done")!.join("\n"))).toMatchObject({ status: "signed" });
    expect(verifyLedger(sink.store.get("demo-open")!.join("\n"))).toMatchObject({ status: "open", checkpoint: 4 });
  });

  it("writes no checkpoint without a key", () => {
    const sink = memorySinks();
    const ledgers = chainedLedgers(sink);
    const chain = ledgers("demo", "r");
    for (let i = 0; i < 100; i++) chain.append("step_started", { step: "a", attempt: 1 });
    ledgers.checkpointOpen();
    expect(sink.store.get("demo-r")!.some((l) => l.includes('"checkpoint"'))).toBe(false);
  });
});
