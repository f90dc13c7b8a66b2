// The opt-in token store (`--token-store <file>`): where rotated refresh
// tokens are kept across restarts, and the access token --auth got from a
// server that issues no refresh token. Without it, a server that rotates refresh
// tokens spends the one in the environment at the first refresh, and after a
// restart Stepgate would present that spent token, which servers with replay
// detection answer by revoking the whole grant.
//
// One JSON file, mode 0600, written whole to a temporary file and renamed
// over the old one, so a crash leaves the old or the new file, never half of
// one. It holds secrets by the operator's explicit choice, so Stepgate
// refuses a file that others can read or that is not a regular file.
import { createHash } from "node:crypto";
import { lstatSync, readFileSync } from "node:fs";
import { privateFileProblem } from "../private-file.js";
import { fsProblem, writeWholeFile } from "../whole-file.js";
import { isSecretMethod, type SecretMethod } from "./variables.js";

export class TokenStoreError extends Error {
  override name = "TokenStoreError";
}

interface Entry {
  credential: string;
  token_url: string;
  client_id: string;
  refresh_token: string;
  /** How a confidential client sends its secret, as it was registered (RFC 7591 section 2); absent for public clients. */
  client_auth_method?: SecretMethod;
  /**
   * SHA-256 of the refresh token this chain of rotations started from (the
   * one in the environment, or the one --auth obtained). A different token
   * in the environment starts a new chain, so a fresh authorization is
   * never shadowed by an older stored token.
   */
  origin: string;
}

/**
 * An access token --auth obtained without a refresh token (RFC 6749 section
 * 5.1 makes those optional): used as it is until it expires, never refreshed.
 */
interface AccessEntry {
  credential: string;
  token_url: string;
  access_token: string;
  /** When it expires (ISO 8601), when the server said. */
  expires_at?: string;
}

/** A stored access token, or when the one stored expired. */
export type StoredAccess = { token: string } | { expiredAt: string };

interface StoreFile {
  stepgate_token_store: 1;
  grants: Entry[];
  access_tokens?: AccessEntry[];
}

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

export class TokenStore {
  private entries: Entry[];
  private accessTokens: AccessEntry[];
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    entries: Entry[],
    accessTokens: AccessEntry[] = [],
  ) {
    this.entries = entries;
    this.accessTokens = accessTokens;
  }

  /** Opens the store, creating an empty one (0600) when the file does not exist. Throws TokenStoreError with a one-line reason. */
  static open(path: string): TokenStore {
    let stat;
    try {
      stat = lstatSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new TokenStoreError(`${path}: ${(error as Error).message}`);
      const store = new TokenStore(path, []);
      store.writeNow();
      return store;
    }
    const problem = privateFileProblem(path, stat);
    if (problem !== undefined) throw new TokenStoreError(problem);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      throw new TokenStoreError(`${path} is not a Stepgate token store: ${(error as Error).message.split("\n")[0]}`);
    }
    const file = parsed as Partial<StoreFile>;
    const accessOk = file.access_tokens === undefined || (Array.isArray(file.access_tokens) && file.access_tokens.every(isAccessEntry));
    if (file.stepgate_token_store !== 1 || !Array.isArray(file.grants) || !file.grants.every(isEntry) || !accessOk) throw new TokenStoreError(`${path} is not a Stepgate token store`);
    return new TokenStore(path, file.grants, file.access_tokens ?? []);
  }

  /**
   * The refresh token to start from for a credential and client: the stored
   * one when the environment gives none, or gives the token its chain
   * started from or the stored token itself; otherwise undefined (use the
   * environment's).
   */
  current(credential: string, tokenUrl: string, clientId: string, fromEnv: string | undefined): string | undefined {
    const entry = this.find(credential, tokenUrl, clientId);
    if (!entry) return undefined;
    if (fromEnv === undefined || entry.origin === sha256(fromEnv) || entry.refresh_token === fromEnv) return entry.refresh_token;
    return undefined;
  }

  /** How the stored client sends its secret, when --auth recorded it. */
  clientAuthMethod(credential: string, tokenUrl: string, clientId: string): SecretMethod | undefined {
    return this.find(credential, tokenUrl, clientId)?.client_auth_method;
  }

  /**
   * Keeps `refreshToken`, which replaced `previous` (or started a chain, for
   * --auth, with the client's authentication method). A rotation keeps the
   * method already stored. Resolves once it is on disk.
   */
  save(credential: string, tokenUrl: string, clientId: string, refreshToken: string, previous?: string, clientAuthMethod?: SecretMethod): Promise<void> {
    const existing = this.find(credential, tokenUrl, clientId);
    const origin = existing && previous !== undefined && (existing.refresh_token === previous || existing.origin === sha256(previous)) ? existing.origin : sha256(previous ?? refreshToken);
    const method = previous === undefined ? clientAuthMethod : (clientAuthMethod ?? existing?.client_auth_method);
    const entry: Entry = { credential, token_url: new URL(tokenUrl).href, client_id: clientId, refresh_token: refreshToken, ...(method ? { client_auth_method: method } : {}), origin };
    this.entries = [...this.entries.filter((e) => e !== existing), entry];
    return this.write();
  }

  /** Writes follow each other, so the last change is the one left on disk. */
  private write(): Promise<void> {
    const written = this.writing.then(() => this.writeNow());
    this.writing = written.catch(() => undefined);
    return written;
  }

  /** Keeps the access token --auth obtained without a refresh token, replacing an earlier one for the credential. Resolves once it is on disk. */
  saveAccess(credential: string, tokenUrl: string, accessToken: string, expiresAt?: Date): Promise<void> {
    const url = new URL(tokenUrl).href;
    const entry: AccessEntry = { credential, token_url: url, access_token: accessToken, ...(expiresAt ? { expires_at: expiresAt.toISOString() } : {}) };
    this.accessTokens = [...this.accessTokens.filter((e) => !(e.credential === credential && e.token_url === url)), entry];
    return this.write();
  }

  /** The stored access token of a credential while it is valid at `now`, or when it expired; undefined when none is stored. */
  access(credential: string, tokenUrl: string, now: number): StoredAccess | undefined {
    const url = new URL(tokenUrl).href;
    const entry = this.accessTokens.find((e) => e.credential === credential && e.token_url === url);
    if (!entry) return undefined;
    if (entry.expires_at !== undefined && Date.parse(entry.expires_at) <= now) return { expiredAt: entry.expires_at };
    return { token: entry.access_token };
  }

  private find(credential: string, tokenUrl: string, clientId: string): Entry | undefined {
    const url = new URL(tokenUrl).href;
    return this.entries.find((e) => e.credential === credential && e.token_url === url && e.client_id === clientId);
  }

  private writeNow(): void {
    const file: StoreFile = { stepgate_token_store: 1, grants: this.entries, ...(this.accessTokens.length > 0 ? { access_tokens: this.accessTokens } : {}) };
    try {
      // Whole or not at all: one write(2) may write part of the file on a full disk (src/whole-file.ts).
      writeWholeFile(this.path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, sync: true });
    } catch (error) {
      throw new TokenStoreError(`could not write ${this.path} (${fsProblem(error)}); it still holds what it held before`);
    }
  }
}

function isEntry(value: unknown): value is Entry {
  const e = value as Record<string, unknown>;
  return typeof e === "object" && e !== null && ["credential", "token_url", "client_id", "refresh_token", "origin"].every((k) => typeof e[k] === "string") && (e.client_auth_method === undefined || isSecretMethod(e.client_auth_method));
}

function isAccessEntry(value: unknown): value is AccessEntry {
  const e = value as Record<string, unknown>;
  return typeof e === "object" && e !== null && ["credential", "token_url", "access_token"].every((k) => typeof e[k] === "string") && (e.expires_at === undefined || (typeof e.expires_at === "string" && !Number.isNaN(Date.parse(e.expires_at))));
}
