// A really full file system for tests of what Stepgate writes when the disk
// fills: a small tmpfs mounted on a fresh folder, filled by a test to leave
// exactly the room it wants (tmpfs hands out whole 4 KiB pages, so a write
// larger than the room left is a real short write, then ENOSPC). Mounting
// needs CAP_SYS_ADMIN (root, as on this project's machines and in its CI
// container); where the mount is refused, `smallDisk` says why and the
// tests that need it skip, while test/ledger/short-write.test.ts and
// test/whole-file.test.ts still act the same failures out through the
// modules' own seams.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const PAGE = 4096;

export interface SmallDisk {
  /** The mount point. */
  dir: string;
  /** Fills the disk so that `room` bytes (a multiple of PAGE) are left. */
  fill(room: number): void;
  /** Removes the filler: the disk has room again. */
  free(): void;
  unmount(): void;
}

/** A tmpfs of `bytes`, or why there cannot be one here. */
export function smallDisk(bytes: number): SmallDisk | string {
  if (process.platform !== "linux") return "tmpfs mounts are a Linux feature";
  const dir = mkdtempSync(join(tmpdir(), "stepgate-small-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${bytes},mode=0700`, "tmpfs", dir], { stdio: "pipe" });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return `cannot mount a tmpfs here (${String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()})`;
  }
  const filler = join(dir, "filler");
  let fillers = 0;
  return {
    dir,
    fill(room) {
      const stat = statfsSync(dir);
      const free = Number(stat.bavail) * Number(stat.bsize);
      if (free < room) throw new Error(`only ${free} bytes are free, fewer than the ${room} asked for`);
      mkdirSync(filler, { recursive: true });
      writeFileSync(join(filler, String(fillers++)), Buffer.alloc(free - room));
      const left = Number(statfsSync(dir).bavail) * Number(stat.bsize);
      if (left !== room) throw new Error(`filled to ${left} bytes free, not ${room}`);
    },
    free: () => rmSync(filler, { recursive: true, force: true }),
    unmount() {
      execFileSync("umount", [dir], { stdio: "pipe" });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
