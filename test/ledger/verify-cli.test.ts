// --keygen, --signing-key and --verify through the built CLI, on ledgers that
// real runs wrote: each way of changing a ledger (an edit, a reorder, a cut,
// a chain rebuilt with fresh hashes, a signature by another key) gets its own
// verdict, and only an intact, closed (and, with --key, signed) file exits 0.
import { spawnSync } from "node:child_process";
import { createPrivateKey } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson, sha256 } from "../../src/format/identity.js";
import { stepgateBin } from "../support/paths.js";
import { makeRealRuns, type RealRuns } from "./real-runs.js";

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [stepgateBin(), ...args], { encoding: "utf8", timeout: 60_000, env: { PATH: process.env.PATH ?? "" } });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), "stepgate-verify-"));
const keys = join(dir, "keys");
const otherKeys = join(dir, "other-keys");
let signed: RealRuns;
let unsigned: RealRuns;
let fingerprint: string;

beforeAll(async () => {
  const made = cli("--keygen", keys);
  expect(made.code).toBe(0);
  fingerprint = /fingerprint: (sha256:[0-9a-f]{64})/.exec(made.out)![1]!;
  expect(cli("--keygen", otherKeys).code).toBe(0);
  // A checkpoint every 3 records, so even these short runs carry several.
  [signed, unsigned] = await Promise.all([
    makeRealRuns(["--signing-key", join(keys, "stepgate-ledger.key"), "--checkpoint-every", "3"]),
    makeRealRuns(),
  ]);
}, 180_000);
const made: string[] = [];
afterAll(() => {
  for (const d of [dir, signed?.dir, unsigned?.dir, ...made]) if (d) rmSync(d, { recursive: true, force: true });
});

const lines = (file: string) => readFileSync(file, "utf8").trimEnd().split("\n");
const records = (file: string) => lines(file).map((l) => JSON.parse(l) as Record<string, unknown>);
function write(name: string, recs: Array<Record<string, unknown> | string>): string {
  const path = join(dir, name);
  writeFileSync(path, `${recs.map((r) => (typeof r === "string" ? r : canonicalJson(r))).join("\n")}\n`);
  return path;
}
/** What someone who can write the file can do: fix every prev after an edit. */
function rechain(recs: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  let prev: string | null = null;
  return recs.map((r) => {
    const out: Record<string, unknown> = { ...r, prev };
    prev = sha256(canonicalJson(out));
    return out;
  });
}

describe("stepgate --keygen", { timeout: 120_000 }, () => {
  it("writes a PEM pair, the private key readable by its owner only, and names the fingerprint", () => {
    expect(statSync(join(keys, "stepgate-ledger.key")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(keys, "stepgate-ledger.key"), "utf8")).toContain("-----BEGIN PRIVATE KEY-----");
    expect(readFileSync(join(keys, "stepgate-ledger.pub.pem"), "utf8")).toContain("-----BEGIN PUBLIC KEY-----");
    expect(createPrivateKey(readFileSync(join(keys, "stepgate-ledger.key"))).asymmetricKeyType).toBe("ed25519");
  });

  it("refuses to overwrite a key, in one line, leaving it unchanged", () => {
    const before = readFileSync(join(keys, "stepgate-ledger.key"), "utf8");
    const again = cli("--keygen", keys);
    expect(again.code).toBe(1);
    expect(again.err.trim().split("\n")).toHaveLength(1);
    expect(again.err).toContain("already exists; Stepgate never overwrites a key");
    expect(readFileSync(join(keys, "stepgate-ledger.key"), "utf8")).toBe(before);
  });
});

describe("serving with a signing key", { timeout: 120_000 }, () => {
  it("stops at start with one line when the key cannot be read or is not a private Ed25519 key", () => {
    const greet = join(import.meta.dirname, "../fixtures/greet.stepfile.yaml");
    const missing = cli("--signing-key", join(dir, "nope.key"), greet);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^stepgate: signing key .*nope\.key: cannot be read \(ENOENT\)\n$/);
    const notPem = write("not-a-key.pem", ["hello"]);
    expect(cli("--signing-key", notPem, greet).err).toMatch(/^stepgate: signing key .*not-a-key\.pem: not a PEM key\n$/);
    const viaEnv = spawnSync(process.execPath, [stepgateBin(), greet], { encoding: "utf8", env: { PATH: process.env.PATH ?? "", STEPGATE_SIGNING_KEY: join(keys, "stepgate-ledger.pub.pem") } });
    expect(viaEnv.status).toBe(1);
    expect(viaEnv.stderr).toMatch(/^stepgate: signing key .*stepgate-ledger\.pub\.pem: not a PEM key\n$|: not a private key/);
    expect(cli("--checkpoint-every", "5", greet).code).toBe(2);
  });

  it("signs every closing record and a checkpoint every N records; no secret enters the file", () => {
    const recs = records(signed.ledgers.agent);
    const last = recs.at(-1)!;
    expect(last).toMatchObject({ type: "run_finished", key_fingerprint: fingerprint });
    expect(typeof last.signature).toBe("string");
    const checkpoints = recs.filter((r) => r.type === "checkpoint");
    expect(checkpoints.length).toBeGreaterThanOrEqual(3);
    expect(checkpoints.every((c) => c.reason === "interval" && c.key_fingerprint === fingerprint)).toBe(true);
    const privatePem = readFileSync(join(keys, "stepgate-ledger.key"), "utf8");
    const privateDer = createPrivateKey(privatePem).export({ type: "pkcs8", format: "der" }).toString("base64");
    const text = readFileSync(signed.ledgers.agent, "utf8");
    expect(text).not.toContain(privateDer.slice(-40));
    expect(text).not.toContain("PRIVATE");
  });
});

describe("stepgate --verify", { timeout: 120_000 }, () => {
  it("intact and signed: exit 0, also with the right --key", () => {
    const r = cli("--verify", signed.ledgers.agent);
    expect(r.out).toBe(`${signed.ledgers.agent}: intact and signed by ${fingerprint}, ${lines(signed.ledgers.agent).length} records\n`);
    expect(r.code).toBe(0);
    expect(cli("--verify", "--key", join(keys, "stepgate-ledger.pub.pem"), ...Object.values(signed.ledgers)).code).toBe(0);
  });

  it("intact, unsigned: says the last record is not protected; exit 0, but 1 when a key is required", () => {
    const r = cli("--verify", unsigned.ledgers.agent);
    expect(r.out).toContain("intact, unsigned: the last record is not protected");
    expect(r.code).toBe(0);
    expect(cli("--verify", "--key", join(keys, "stepgate-ledger.pub.pem"), unsigned.ledgers.agent).code).toBe(1);
  });

  it("truncated: intact up to the last checkpoint but open, never plain ok (exit 1)", () => {
    const recs = records(signed.ledgers.agent);
    const lastCheckpoint = recs.map((r) => r.type).lastIndexOf("checkpoint");
    const cut = write("cut.jsonl", lines(signed.ledgers.agent).slice(0, lastCheckpoint + 2));
    const r = cli("--verify", cut);
    expect(r.out).toContain(`intact up to the last checkpoint (record ${lastCheckpoint}, signed by ${fingerprint}) but open: no closing record`);
    expect(r.code).toBe(1);
    // Without a key, a cut file is open and nothing protects it.
    const cutUnsigned = write("cut-unsigned.jsonl", lines(unsigned.ledgers.agent).slice(0, -1));
    const u = cli("--verify", cutUnsigned);
    expect(u.out).toContain("open: no closing record and no signed checkpoint, so nothing is protected");
    expect(u.code).toBe(1);
  });

  it("tampered: an edited record is named by the record after it", () => {
    const l = lines(signed.ledgers.agent);
    l[2] = l[2]!.replace(/"output_length":\d+/, '"output_length":999');
    const r = cli("--verify", write("edited.jsonl", l));
    expect(r.out).toContain("tampered at record 3 (line 4): prev is not the hash of the previous record");
    expect(r.code).toBe(1);
  });

  it("reordered: two records swapped", () => {
    const l = lines(unsigned.ledgers.agent);
    [l[3], l[4]] = [l[4]!, l[3]!];
    const r = cli("--verify", write("reordered.jsonl", l));
    expect(r.out).toContain("tampered at record 4 (line 4): seq 4 where 3 should follow");
    expect(r.code).toBe(1);
  });

  it("re-chained with fresh hashes: passes as unsigned (what a chain alone cannot see), but breaks a signature", () => {
    const edit = (recs: Array<Record<string, unknown>>) => recs.map((r, i) => (i === 2 ? { ...r, output_length: 999 } : r));
    const plain = cli("--verify", write("rechained-unsigned.jsonl", rechain(edit(records(unsigned.ledgers.agent)))));
    expect(plain.out).toContain("intact, unsigned: the last record is not protected");
    const recs = rechain(edit(records(signed.ledgers.agent)));
    const firstSigned = recs.findIndex((r) => typeof r.signature === "string");
    const r = cli("--verify", write("rechained.jsonl", recs));
    expect(r.out).toContain(`signature invalid at record ${firstSigned} (line ${firstSigned + 1}): the signature does not match the record`);
    expect(r.code).toBe(1);
  });

  it("signatures dropped and the chain rebuilt: an unsigned end after signed records is tampering", () => {
    const recs = records(signed.ledgers.agent).filter((r) => r.type !== "checkpoint").map(({ signature: _s, key_fingerprint: _k, public_key: _p, ...r }) => r);
    const mixed = rechain([...records(signed.ledgers.agent).slice(0, 4), ...recs.slice(3).map((r, i) => ({ ...r, seq: 4 + i }))]);
    const r = cli("--verify", write("stripped.jsonl", mixed));
    expect(r.out).toMatch(/tampered at record \d+ \(line \d+\): the closing record is not signed, though record \d+ was/);
    expect(r.code).toBe(1);
  });

  it("wrongly signed: a ledger signed by another key is 'wrong key' with --key, and names its signer without", async () => {
    const other = await makeRealRuns(["--signing-key", join(otherKeys, "stepgate-ledger.key")]);
    made.push(other.dir);
    const withKey = cli("--verify", "--key", join(keys, "stepgate-ledger.pub.pem"), other.ledgers.agent);
    expect(withKey.out).toMatch(new RegExp(`wrong key: signed by sha256:[0-9a-f]{64}, not by the given key ${fingerprint}`));
    expect(withKey.code).toBe(1);
    const without = cli("--verify", other.ledgers.agent);
    expect(without.out).toContain("intact and signed by sha256:");
    expect(without.out).not.toContain(fingerprint);
  }, 120_000);

  it("--json gives each file's verdict for scripts", () => {
    const cut = write("cut-json.jsonl", lines(signed.ledgers.agent).slice(0, -1));
    const r = cli("--verify", "--json", "--key", join(keys, "stepgate-ledger.pub.pem"), signed.ledgers.agent, cut, join(dir, "missing.jsonl"));
    expect(r.code).toBe(1);
    const parsed = JSON.parse(r.out) as { key: string; files: Array<{ file: string; pass: boolean; verdict: { status: string } }> };
    expect(parsed.key).toBe(fingerprint);
    expect(parsed.files.map((f) => [f.pass, f.verdict.status])).toEqual([[true, "signed"], [false, "open"], [false, "unreadable"]]);
  });

  it("a key that cannot be read is a usage error in one line", () => {
    const r = cli("--verify", "--key", join(dir, "none.pem"), signed.ledgers.agent);
    expect(r.code).toBe(2);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });
});
