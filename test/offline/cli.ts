// The built CLI, run once to completion, as CI would run `stepgate --test`.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { REPO_ROOT, stepgateBin } from "../support/paths.js";

const run = promisify(execFile);

export async function stepgate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [stepgateBin(), ...args], { cwd: REPO_ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
