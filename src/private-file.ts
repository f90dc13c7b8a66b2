// Files that hold secrets by the operator's choice (the --token-store of
// rotated refresh tokens, the --http-token-file): refused unless they are a
// regular file that only their owner can read or write, so a mistake in
// permissions stops the server instead of leaking the secret.
import type { Stats } from "node:fs";

/** Why `path` (with `stat` from lstat) may not hold a secret, or undefined when it may. */
export function privateFileProblem(path: string, stat: Stats): string | undefined {
  if (!stat.isFile()) return `${path} is not a regular file`;
  if ((stat.mode & 0o077) !== 0) return `${path} can be read or written by others (mode ${(stat.mode & 0o777).toString(8)}); run chmod 600 ${path}`;
  return undefined;
}
