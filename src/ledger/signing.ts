// Ed25519 signatures on ledger records, with Node's own crypto (no library
// needed: node:crypto generates, reads PEM and signs Ed25519 since Node 12).
//
// A signed record carries three fields: `key_fingerprint` (`sha256:` + hex
// SHA-256 of the public key's SPKI DER form), `public_key` (that DER form in
// base64, so a file can be checked without the key at hand and the verdict
// names who signed) and `signature` (base64 Ed25519 over the RFC 8785 form of
// the record without `signature`). That form holds the run id, the seq, the
// previous record's hash, the record's own fields and the fingerprint, so
// none of them can change without breaking the signature. Only public
// material ever enters a record.
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import { canonicalJson, sha256 } from "../format/identity.js";

export const SIGNATURE_FIELDS = ["key_fingerprint", "public_key", "signature"] as const;

export interface SignatureFields {
  key_fingerprint: string;
  public_key: string;
  signature: string;
}

export interface RecordSigner {
  readonly fingerprint: string;
  /** The record with the signature fields added. */
  sign<T extends Record<string, unknown>>(record: T): T & SignatureFields;
}

/** A key file that cannot be used: the message is one line naming the file and why. */
export class KeyFileError extends Error {
  override readonly name = "KeyFileError";
}

export function fingerprint(key: KeyObject): string {
  return sha256(publicDer(key));
}

function publicDer(key: KeyObject): Buffer {
  const pub = key.type === "private" ? createPublicKey(key) : key;
  return pub.export({ type: "spki", format: "der" });
}

/** Reads an Ed25519 private key (PEM) for `--signing-key`; throws KeyFileError. */
export function loadSigner(path: string): RecordSigner {
  const key = readKey(path, (pem) => createPrivateKey(pem));
  if (key.type !== "private") throw new KeyFileError(`${path}: not a private key (give the private key to --signing-key)`);
  const publicKey = publicDer(key).toString("base64");
  const fp = fingerprint(key);
  return {
    fingerprint: fp,
    sign(record) {
      const unsigned = { ...record, key_fingerprint: fp, public_key: publicKey };
      const signature = sign(null, Buffer.from(canonicalJson(unsigned)), key).toString("base64");
      return { ...unsigned, signature };
    },
  };
}

/** Reads a public key (or a private one, whose public half is used) for `--verify --key`. */
export function loadPublicKey(path: string): KeyObject {
  const key = readKey(path, (pem) => createPublicKey(pem));
  return key;
}

function readKey(path: string, parse: (pem: string) => KeyObject): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(path, "utf8");
  } catch (error) {
    throw new KeyFileError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let key: KeyObject;
  try {
    key = parse(pem);
  } catch {
    throw new KeyFileError(`${path}: not a PEM key`);
  }
  if (key.asymmetricKeyType !== "ed25519") throw new KeyFileError(`${path}: an ${key.asymmetricKeyType ?? "unknown"} key; Stepgate signs with Ed25519 (make one with stepgate --keygen)`);
  return key;
}

export type SignatureCheck = { ok: true; fingerprint: string } | { ok: false; reason: string };

/** Checks a signed record's fields against each other: the key matches its fingerprint and signed the record. */
export function checkSignature(record: Record<string, unknown>): SignatureCheck {
  const { key_fingerprint: fp, public_key: publicKey, signature, ...rest } = record;
  if (typeof fp !== "string" || typeof publicKey !== "string" || typeof signature !== "string") {
    return { ok: false, reason: "the signature fields are incomplete" };
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(publicKey, "base64"), format: "der", type: "spki" });
  } catch {
    return { ok: false, reason: "public_key is not a public key" };
  }
  if (key.asymmetricKeyType !== "ed25519") return { ok: false, reason: "public_key is not an Ed25519 key" };
  if (fingerprint(key) !== fp) return { ok: false, reason: "key_fingerprint is not the fingerprint of public_key" };
  const signed = canonicalJson({ ...rest, key_fingerprint: fp, public_key: publicKey });
  if (!verify(null, Buffer.from(signed), key, Buffer.from(signature, "base64"))) {
    return { ok: false, reason: "the signature does not match the record" };
  }
  return { ok: true, fingerprint: fp };
}
