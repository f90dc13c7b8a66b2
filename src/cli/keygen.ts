// `stepgate --keygen <dir>`: an Ed25519 key pair for signing ledgers, as PEM
// files. The private key is created with mode 0600 and never overwritten:
// replacing a key would orphan every ledger signed with it.
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fingerprint } from "../ledger/signing.js";
import { fsProblem, writeWholeFile } from "../whole-file.js";

export const PRIVATE_KEY_FILE = "stepgate-ledger.key";
export const PUBLIC_KEY_FILE = "stepgate-ledger.pub.pem";

export function keygen(dir: string, out: (line: string) => void, err: (line: string) => void): number {
  const privatePath = join(dir, PRIVATE_KEY_FILE);
  const publicPath = join(dir, PUBLIC_KEY_FILE);
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  let writing = privatePath;
  try {
    // Checked first so a refused run leaves no half pair behind.
    if (existsSync(publicPath)) throw Object.assign(new Error("exists"), { code: "EEXIST" });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Exclusive: fails when the file exists, so an existing key is never replaced, even by a race;
    // whole: a full disk leaves no half key that a second try would refuse to overwrite.
    writeWholeFile(privatePath, privateKey.export({ type: "pkcs8", format: "pem" }), { exclusive: true, mode: 0o600, sync: true });
    writing = publicPath;
    writeWholeFile(publicPath, publicKey.export({ type: "spki", format: "pem" }), { exclusive: true, mode: 0o644, sync: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // The private key without its public half is no pair: gone, so the same command can run again.
    if (writing === publicPath && code !== "EEXIST") rmSync(privatePath, { force: true });
    err(code === "EEXIST"
      ? `stepgate: ${existsSync(privatePath) && writing === privatePath ? privatePath : publicPath} already exists; Stepgate never overwrites a key (choose another folder)`
      : `stepgate: cannot write ${writing} (${fsProblem(error)})`);
    return 1;
  }
  out(`private key: ${privatePath} (serve with --signing-key ${privatePath}; keep it secret)`);
  out(`public key:  ${publicPath} (check ledgers with --verify --key ${publicPath})`);
  out(`fingerprint: ${fingerprint(publicKey)}`);
  return 0;
}
