// `stepgate --verify`: a ledger file is good when its records form one chain
// from seq 0: same run and stepfile throughout, seq counting up by one, and
// each `prev` the hash of the previous record's canonical form.
import { canonicalJson, sha256 } from "../format/identity.js";
import { RECORD_TYPES } from "./records.js";

export type Verdict = { ok: true; records: number } | { ok: false; seq: number | null; line: number; reason: string };

export function verifyLedger(text: string): Verdict {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length === 0) return { ok: false, seq: null, line: 0, reason: "the file holds no records" };
  let prevHash: string | null = null;
  let run: unknown;
  let stepfile: unknown;
  for (const [i, line] of lines.entries()) {
    const expectedSeq = i;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
      if (!record || typeof record !== "object" || Array.isArray(record)) throw new Error("not an object");
    } catch {
      return { ok: false, seq: expectedSeq, line: i + 1, reason: "the line is not a JSON record" };
    }
    const bad = (reason: string): Verdict => ({ ok: false, seq: typeof record.seq === "number" ? record.seq : expectedSeq, line: i + 1, reason });
    if (i === 0) {
      run = record.run;
      stepfile = record.stepfile;
      if (typeof run !== "string" || typeof stepfile !== "string") return bad("the first record has no run and stepfile");
    }
    if (record.seq !== expectedSeq) return bad(`seq ${String(record.seq)} where ${expectedSeq} should follow`);
    if (record.run !== run) return bad(`record of run ${String(record.run)} in the ledger of run ${String(run)}`);
    if (record.stepfile !== stepfile) return bad(`record of stepfile ${String(record.stepfile)} in the ledger of ${String(stepfile)}`);
    if (!(RECORD_TYPES as readonly string[]).includes(record.type as string)) return bad(`unknown record type ${String(record.type)}`);
    if (typeof record.at !== "string" || Number.isNaN(Date.parse(record.at))) return bad("at is not an RFC 3339 time");
    if (record.prev !== prevHash) {
      return bad(i === 0 ? "the first record's prev must be null" : "prev is not the hash of the previous record (a record was edited, removed or reordered)");
    }
    prevHash = sha256(canonicalJson(record));
  }
  return { ok: true, records: lines.length };
}
