// Stepfiles and cases files are read with a size bound, before any parsing:
// a 50 MB file with millions of keys kept the loader busy for over a minute
// at 2.9 GB. Reading at most maxBytes + 1 bytes (rather than trusting a
// stat) also bounds a file that grows while read. Only a regular file is
// read: opening a FIFO waits for a writer forever and a device may never
// end, so the file is opened without blocking and anything else is refused
// by what it is (issue 29).
import { constants, type Stats } from "node:fs";
import { open } from "node:fs/promises";

export type BoundedRead = { text: string } | { tooLarge: string };

/**
 * The file's text, or a one-line reason it is over `maxBytes` naming `flag`.
 * Errors opening or reading the file are thrown as they are.
 */
export async function readBounded(path: string, maxBytes: number, flag = "--max-stepfile-bytes"): Promise<BoundedRead> {
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = await file.stat();
    if (!stat.isFile()) throw new NotRegularFile(kindOf(stat));
    const chunks: Buffer[] = [];
    let total = 0;
    // The first read is sized by the file as it stands, one byte over, so a
    // regular file takes one read and a buffer its size (not a whole CHUNK
    // per file, which serving 28 stepfiles spent in allocation and GC);
    // the size is only a guess, the bound is what the loop reads.
    let next = Math.min(CHUNK, stat.size + 1);
    while (total <= maxBytes) {
      const chunk = Buffer.allocUnsafe(Math.min(next, maxBytes + 1 - total));
      next = CHUNK;
      const { bytesRead } = await file.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) return { text: Buffer.concat(chunks, total).toString("utf8") };
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
    }
    const size = (await file.stat()).size;
    const how = size > maxBytes ? `is ${size} bytes` : `has more than ${maxBytes} bytes`;
    return { tooLarge: `${how}, more than ${flag} (${maxBytes}); it was not parsed` };
  } finally {
    await file.close();
  }
}

const CHUNK = 1024 * 1024;

/** Thrown for a path that names something other than a regular file; `code` is the reason callers print. */
export class NotRegularFile extends Error {
  readonly code: string;
  constructor(kind: string) {
    super(`it is ${kind}, not a regular file`);
    this.code = this.message;
  }
}

/** What a file that is not a regular one is, in words. */
export function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return "a directory";
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  return "a special file";
}
