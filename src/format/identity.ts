// Identity and every hash Stepgate records: `sha256:` + hex SHA-256 of the
// RFC 8785 (JCS) canonical JSON, so YAML and JSON spellings of one document
// share an identity.
import { createHash } from "node:crypto";
import { canonicalJsonText } from "./canonical-json.js";

export function canonicalJson(value: unknown): string {
  const text = canonicalJsonText(value);
  if (text === undefined) throw new Error("value has no JSON form");
  return text;
}

export function sha256(text: string | Uint8Array): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

export function hashJson(value: unknown): string {
  return sha256(canonicalJson(value));
}

/** Length in bytes of a value's canonical form, as the ledger records it. */
export function canonicalLength(value: unknown): number {
  return Buffer.byteLength(canonicalJson(value ?? null));
}
