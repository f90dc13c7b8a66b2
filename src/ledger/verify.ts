// `stepgate --verify`: what a ledger file proves.
//
// The chain (one run and stepfile throughout, seq counting up by one, each
// `prev` the hash of the previous record's canonical form) shows that no
// record before the last was edited, removed or reordered. It cannot cover
// the last record, which no later `prev` names, and anyone who can write the
// file can rebuild the whole chain with fresh hashes. Signatures close both
// gaps: a signed closing record fixes the whole chain up to it, and signed
// checkpoints fix the chain up to them while the run is open. Hence the
// verdicts, from best to worst:
//
//   signed      closed by a signed record, every signature valid
//   unsigned    closed, no signature: intact, but the last record is not protected
//   open        no closing record: intact up to the last checkpoint (if any);
//               an empty file too (no records yet: Stepgate creates a file
//               with its first record, but a power loss before the data
//               reached the disk can leave the name without it)
//   tampered    a record does not follow (or a signed file lost its signatures)
//   signature   a signature is invalid
//   wrong-key   intact and signed, but not by the key given with --key
//   unreadable  no records
import type { KeyObject } from "node:crypto";
import { canonicalJson, sha256 } from "../format/identity.js";
import { isClosing, RECORD_TYPES } from "./records.js";
import { checkSignature, fingerprint } from "./signing.js";

export type Verdict =
  | { status: "signed"; records: number; key: string }
  | { status: "unsigned"; records: number }
  | { status: "open"; records: number; checkpoint: number | null; key: string | null }
  | { status: "tampered"; seq: number | null; line: number; reason: string }
  | { status: "signature"; seq: number; line: number; reason: string }
  | { status: "wrong-key"; records: number; key: string; expected: string }
  | { status: "unreadable"; reason: string };

/** Passes when intact and closed; with a key, only when signed by it. */
export function verdictPasses(verdict: Verdict, keyGiven: boolean): boolean {
  return verdict.status === "signed" || (verdict.status === "unsigned" && !keyGiven);
}

export function verifyLedger(text: string, key?: KeyObject): Verdict {
  if (text === "") return { status: "open", records: 0, checkpoint: null, key: null };
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length === 0) return { status: "unreadable", reason: "the file holds no records" };
  let prevHash: string | null = null;
  let run: unknown;
  let stepfile: unknown;
  let signedBy: string | null = null;
  let lastSigned: number | null = null;
  let closed = false;
  for (const [i, line] of lines.entries()) {
    const tampered = (reason: string, seq: number | null = i): Verdict => ({ status: "tampered", seq, line: i + 1, reason });
    if (closed) return tampered("a record follows the closing record");
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
      if (!record || typeof record !== "object" || Array.isArray(record)) throw new Error("not an object");
    } catch {
      return tampered("the line is not a JSON record");
    }
    const bad = (reason: string) => tampered(reason, typeof record.seq === "number" ? record.seq : i);
    if (i === 0) {
      run = record.run;
      stepfile = record.stepfile;
      if (typeof run !== "string" || typeof stepfile !== "string") return bad("the first record has no run and stepfile");
    }
    if (record.seq !== i) return bad(`seq ${String(record.seq)} where ${i} should follow`);
    if (record.run !== run) return bad(`record of run ${String(record.run)} in the ledger of run ${String(run)}`);
    if (record.stepfile !== stepfile) return bad(`record of stepfile ${String(record.stepfile)} in the ledger of ${String(stepfile)}`);
    if (!(RECORD_TYPES as readonly string[]).includes(record.type as string)) return bad(`unknown record type ${String(record.type)}`);
    if (typeof record.at !== "string" || Number.isNaN(Date.parse(record.at))) return bad("at is not an RFC 3339 time");
    if (record.prev !== prevHash) {
      return bad(i === 0 ? "the first record's prev must be null" : "prev is not the hash of the previous record (a record was edited, removed or reordered)");
    }
    prevHash = sha256(canonicalJson(record));
    closed = isClosing(record.type);
    const signed = "signature" in record || "key_fingerprint" in record || "public_key" in record;
    if (record.type === "checkpoint" && !signed) return bad("a checkpoint without a signature");
    if (!signed) {
      // A file that was signed must end signed: an unsigned closing record after a
      // signed one is what cutting the file and appending a forged ending looks like.
      if (closed && signedBy !== null) return bad(`the closing record is not signed, though record ${lastSigned} was (the records after it were replaced)`);
      continue;
    }
    const check = checkSignature(record);
    if (!check.ok) return { status: "signature", seq: i, line: i + 1, reason: check.reason };
    if (signedBy !== null && check.fingerprint !== signedBy) {
      return { status: "signature", seq: i, line: i + 1, reason: `signed by ${check.fingerprint}, but record ${lastSigned} by ${signedBy}` };
    }
    signedBy = check.fingerprint;
    lastSigned = i;
  }
  const records = lines.length;
  if (!closed) return { status: "open", records, checkpoint: lastSigned, key: signedBy };
  if (signedBy === null) return { status: "unsigned", records };
  if (key && fingerprint(key) !== signedBy) return { status: "wrong-key", records, key: signedBy, expected: fingerprint(key) };
  return { status: "signed", records, key: signedBy };
}

/** One line per verdict, as `--verify` prints it after the file name. */
export function describeVerdict(verdict: Verdict, keyGiven = false): string {
  switch (verdict.status) {
    case "signed":
      return `intact and signed by ${verdict.key}, ${verdict.records} records`;
    case "unsigned":
      return `intact, unsigned: the last record is not protected, ${verdict.records} records${keyGiven ? " (a key was given, so this fails)" : ""}`;
    case "open":
      if (verdict.records === 0) return "open, no records: the file is empty (the server stopped before the run's first record reached the disk)";
      return verdict.checkpoint === null
        ? `open: no closing record and no signed checkpoint, so nothing is protected (the run was in progress or the file was cut), ${verdict.records} records`
        : `intact up to the last checkpoint (record ${verdict.checkpoint}, signed by ${verdict.key}) but open: no closing record (the run was in progress or the file was cut), ${verdict.records} records`;
    case "tampered":
      return `tampered at record ${verdict.seq ?? "?"} (line ${verdict.line}): ${verdict.reason}`;
    case "signature":
      return `signature invalid at record ${verdict.seq} (line ${verdict.line}): ${verdict.reason}`;
    case "wrong-key":
      return `wrong key: signed by ${verdict.key}, not by the given key ${verdict.expected}`;
    case "unreadable":
      return `cannot be verified: ${verdict.reason}`;
  }
}
