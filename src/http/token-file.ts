// The bearer token of HTTP mode comes from a file (--http-token-file, or
// STEPGATE_HTTP_TOKEN_FILE), never from the command line, where every local
// user can read it in the process list. `new:<file>` writes a fresh token
// there, once the server is bound: a start that fails (a busy port) leaves
// no file behind that the same command would then refuse as existing. The
// token itself is never printed, logged or put in an error:
// messages name the file only.
import { randomBytes } from "node:crypto";
import { lstatSync, readFileSync } from "node:fs";
import { BEARER_TOKEN } from "../../middleware/bearer-token.js";
import { privateFileProblem } from "../private-file.js";
import { fsProblem, writeWholeFile } from "../whole-file.js";

export class HttpTokenFileError extends Error {
  override name = "HttpTokenFileError";
}

export interface HttpToken {
  token: string;
  /** The file it was read from or written to. */
  path: string;
  /** Made now (`new:`), rather than read. */
  created: boolean;
  /** For a new token: write its file (0600, never overwriting); throws HttpTokenFileError. Call once the server is bound. */
  write?(): void;
}

const NEW = "new:";

/**
 * The token named by `spec`: `<file>` reads it (refused unless only the owner
 * can read the file), `new:<file>` makes a fresh random 256-bit token whose
 * `write()` puts it in a file that must not exist yet (mode 0600; checked
 * here too, so a taken name is refused before the server binds). Throws
 * HttpTokenFileError with a one-line reason that names the file and never
 * the token.
 */
export function httpToken(spec: string): HttpToken {
  if (spec.startsWith(NEW)) return createToken(spec.slice(NEW.length));
  return { token: readToken(spec), path: spec, created: false };
}

function createToken(path: string): HttpToken {
  if (path === "") throw new HttpTokenFileError(`${NEW} needs a file name after it`);
  const exists = () => new HttpTokenFileError(`${path} already exists, and Stepgate never overwrites a token file: give ${path} without ${NEW} to use the token it holds, or name a new file`);
  try {
    lstatSync(path);
    throw exists();
  } catch (error) {
    if (error instanceof HttpTokenFileError) throw error;
  }
  // 32 random bytes in base64url: 43 characters, all valid in a bearer token.
  const token = randomBytes(32).toString("base64url");
  const write = () => {
    try {
      // Exclusive: fails if anything (a file, a link) is already there, so a token is never overwritten;
      // whole: a full disk leaves no file holding part of a token (src/whole-file.ts).
      writeWholeFile(path, `${token}\n`, { mode: 0o600, exclusive: true, sync: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") throw exists();
      throw new HttpTokenFileError(`${path} cannot be written (${fsProblem(error)}); nothing was written there`);
    }
  };
  return { token, path, created: true, write };
}

function readToken(path: string): string {
  let stat;
  try {
    stat = lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new HttpTokenFileError(`${path} does not exist (give ${NEW}${path} to have Stepgate write a new token there)`);
    throw new HttpTokenFileError(`${path} cannot be read (${code ?? (error as Error).message})`);
  }
  const problem = privateFileProblem(path, stat);
  if (problem !== undefined) throw new HttpTokenFileError(problem);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new HttpTokenFileError(`${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const token = text.trim();
  if (!BEARER_TOKEN.test(token)) {
    throw new HttpTokenFileError(`${path} holds no bearer token: expected one line of letters, digits and the characters -._~+/ (optionally ending in =)`);
  }
  return token;
}
