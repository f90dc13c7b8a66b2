// docs/connect.md's Python bearer-token script, run as written (the port
// changed to the server's) with the Python SDK `mcp` 2.x against the built
// CLI started with --http-token-file new:<file> under a temporary $HOME.
// Needs a Python that imports `mcp` and `httpx2`: STEPGATE_TEST_PYTHON names
// one (e.g. a venv with `pip install mcp==2.3.0`), else `python3` is tried;
// without one the test is skipped, saying why.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, startCliServer } from "./fixtures/cli-server.js";

const python = process.env.STEPGATE_TEST_PYTHON ?? "python3";
const importable = spawnSync(python, ["-c", "import mcp, httpx2"], { encoding: "utf8" });
const missing = importable.error ? `${python} is not on this machine` : importable.status !== 0 ? `${python} cannot import the mcp package (pip install mcp==2.3.0, or set STEPGATE_TEST_PYTHON)` : undefined;
if (missing) console.warn(`test/http/python-client.test.ts skipped: ${missing}`);

const doc = readFileSync(join(repoRoot, "docs/connect.md"), "utf8");
const script = /The Python SDK \(`mcp` 2\.x[\s\S]*?```python\n([\s\S]*?)```/.exec(doc)![1]!;
const home = mkdtempSync(join(tmpdir(), "stepgate-python-home-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("docs/connect.md, the Python SDK with a bearer token", () => {
  it("names the mcp 2.x API: streamable_http_client with an httpx2 client, two streams", () => {
    expect(script).toContain('streamable_http_client("http://127.0.0.1:8787/mcp", http_client=http) as (read, write)');
    expect(script).not.toContain("streamablehttp_client");
  });

  it.skipIf(missing !== undefined)("connects, initializes and lists the tools, as written", async () => {
    mkdirSync(join(home, ".config/stepgate"), { recursive: true });
    const server = await startCliServer(["--http-token-file", `new:${join(home, ".config/stepgate/http-token")}`, "release-notes"]);
    try {
      const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn(python, ["-c", script.replaceAll("127.0.0.1:8787", `127.0.0.1:${server.port}`)], { env: { ...process.env, HOME: home } });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d: Buffer) => (stdout += String(d)));
        child.stderr.on("data", (d: Buffer) => (stderr += String(d)));
        child.once("error", reject);
        child.once("close", (code) => resolve({ code, stdout, stderr }));
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("'release-notes'");
      expect(run.stdout).toContain("'stepgate_submit'");
      // The token never reaches the server's output.
      const token = readFileSync(join(home, ".config/stepgate/http-token"), "utf8").trim();
      expect(server.stderr()).not.toContain(token);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
