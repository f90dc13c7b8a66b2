// `stepgate --verify [--key <public.pem>] [--json] <ledger.jsonl>...`: one
// verdict per file (src/ledger/verify.ts). Exit 0 only when every file is
// intact and closed, and, with --key, signed by that key.
import type { KeyObject } from "node:crypto";
import { readFile } from "node:fs/promises";
import { fingerprint, KeyFileError, loadPublicKey } from "../ledger/signing.js";
import { describeVerdict, verdictPasses, verifyLedger, type Verdict } from "../ledger/verify.js";
import type { Options } from "./options.js";

export async function verifyMode(options: Options, out: (text: string) => void, err: (line: string) => void): Promise<number> {
  let key: KeyObject | undefined;
  if (options.key !== undefined) {
    try {
      key = loadPublicKey(options.key);
    } catch (error) {
      if (!(error instanceof KeyFileError)) throw error;
      err(`stepgate: --key ${error.message}`);
      return 2;
    }
  }
  const results: Array<{ file: string; pass: boolean; message: string; verdict: Verdict }> = [];
  for (const file of options.positionals) {
    const verdict = await verifyFile(file, key);
    results.push({ file, pass: verdictPasses(verdict, key !== undefined), message: describeVerdict(verdict, key !== undefined), verdict });
  }
  if (options.json) out(`${JSON.stringify({ key: key ? fingerprint(key) : null, files: results }, null, 2)}\n`);
  else for (const r of results) out(`${r.file}: ${r.message}\n`);
  return results.every((r) => r.pass) ? 0 : 1;
}

export async function verifyFile(file: string, key?: KeyObject): Promise<Verdict> {
  try {
    return verifyLedger(await readFile(file, "utf8"), key);
  } catch (error) {
    return { status: "unreadable", reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
}
