// Files Stepgate writes for later (load cache entries, `new:<file>` bearer
// tokens, --record-cases files, --from-arazzo's stepfiles, the token store,
// --keygen's keys, --show --html's page) appear whole or not at all. On a full disk write(2) may
// write part of what it was given and fail on the next call; a file written
// in place would be left holding that part under its real name, where the
// next reader takes it as the file (a token the server never issued, half a
// key that --keygen then refuses to overwrite, a cases file that no longer
// parses). So the bytes go to a temporary file in the same folder, every
// byte is accounted for, and only then is it given its name, by rename(2)
// (replacing) or link(2) (never replacing: fails when the name is taken).
// Any failure removes the temporary file and throws the error as it came,
// with its `code` (ENOSPC, EDQUOT, ...), for the caller to word.
//
// No library does this for synchronous callers that need link(2)'s
// never-replace semantics (write-file-atomic is asynchronous-first and
// always replaces), and it is a dozen lines.
import { closeSync, fstatSync, fsyncSync, linkSync, openSync, renameSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** The file system calls a whole write makes; tests replace `write` to act out a disk that fills midway. */
export interface WholeFileCalls {
  /** write(2): may write fewer bytes than asked, or throw. */
  write(fd: number, bytes: Buffer, offset: number, length: number): number;
}

export const nodeWholeFileCalls: WholeFileCalls = {
  write: (fd, bytes, offset, length) => writeSync(fd, bytes, offset, length, null),
};

export interface WholeFileOptions {
  /** The file's mode (default 0o644, less the umask). */
  mode?: number;
  /** Never replace: fail with EEXIST when `path` exists (a token, a key). */
  exclusive?: boolean;
  /** fsync the file before it is named (a secret that must outlive a power loss). */
  sync?: boolean;
  calls?: WholeFileCalls;
}

/** Gives `path` exactly `data`, or leaves it as it was and throws. */
export function writeWholeFile(path: string, data: string | Buffer, options: WholeFileOptions = {}): void {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  const calls = options.calls ?? nodeWholeFileCalls;
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  const fd = openSync(temporary, "wx", options.mode ?? 0o644);
  try {
    try {
      for (let written = 0; written < bytes.length; ) {
        const wrote = calls.write(fd, bytes, written, bytes.length - written);
        if (wrote <= 0) throw Object.assign(new Error("no space left on device, write"), { code: "ENOSPC" });
        written += wrote;
      }
      if (fstatSync(fd).size !== bytes.length) throw Object.assign(new Error("the file was not written whole"), { code: "EIO" });
      if (options.sync) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (options.exclusive) {
      linkSync(temporary, path);
      // Named whole by now: a temporary name left behind is litter, not a failure.
      try {
        unlinkSync(temporary);
      } catch {
        // left for the next write's folder
      }
    } else renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** An fs error as one short phrase for a message: "no space left on device (ENOSPC)". */
export function fsProblem(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  const words: Record<string, string> = { ENOSPC: "no space left on device", EDQUOT: "disk quota exceeded", EROFS: "read-only file system", EACCES: "permission denied", EIO: "input/output error" };
  if (code !== undefined) return words[code] ? `${words[code]} (${code})` : code;
  return message ?? String(error);
}
