// The built CLI run once, as users run it from the repository root: its
// exit code, standard output and standard error.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { REPO_ROOT, stepgateBin } from "./paths.js";

const run = promisify(execFile);

export async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [stepgateBin(), ...args], { cwd: REPO_ROOT, maxBuffer: 256 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
