// docs/connect.md promises curl examples that work as written. This test
// takes the ```sh blocks of its "Trying it with curl" section, runs each
// curl command with the real curl binary through `sh -c` against the real
// `stepgate --http` (the built CLI), and checks what each one answers. The
// only change made to the text is the port: the doc's 8787 becomes the free
// port the server picked, so the test never collides with a user's server.
import { AUTHORING_TOOLS } from "../../src/authoring/index.js";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, startCliServer, type CliServer } from "./fixtures/cli-server.js";
import { hasCurl } from "./fixtures/curl.js";
import { messagesOf } from "./fixtures/harness.js";

const DOC_PORT = "8787";
const doc = readFileSync(join(repoRoot, "docs/connect.md"), "utf8");


/** The text of a `### title` section, up to the next heading of level 2 or 3. */
function section(title: string): string {
  const start = doc.indexOf(`### ${title}\n`);
  if (start < 0) throw new Error(`docs/connect.md has no "### ${title}" section`);
  const rest = doc.slice(start + title.length + 5);
  const end = rest.search(/^#{2,3} /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** Every fenced block of `language` in `text`. */
function blocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp("^```" + language + "\\n([\\s\\S]*?)^```", "gm"))].map((m) => m[1]!);
}

/** Shell commands of a block: continuation lines joined, comments and blank lines dropped. */
function commands(block: string): string[] {
  return block
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

const curlCommands = blocks(section("Trying it with curl"), "sh").flatMap(commands);

let server: CliServer;
let ledgerDir: string;
let workDir: string;

beforeAll(async () => {
  ledgerDir = mkdtempSync(join(tmpdir(), "stepgate-connect-doc-ledger-"));
  workDir = mkdtempSync(join(tmpdir(), "stepgate-connect-doc-"));
  server = await startCliServer(["--ledger-dir", ledgerDir, "release-notes"]);
});

afterAll(async () => {
  await server?.stop();
  rmSync(ledgerDir, { recursive: true, force: true });
  rmSync(workDir, { recursive: true, force: true });
});

/** Runs `script` with sh in the work directory, the doc's port swapped for the server's. */
function sh(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", script.replaceAll(`127.0.0.1:${DOC_PORT}`, `127.0.0.1:${server.port}`)], { cwd: workDir });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

type Reply = { id?: number; result?: Record<string, unknown>; error?: unknown };

const ledgerRecords = (): { type: string }[] =>
  readdirSync(ledgerDir).flatMap((file) =>
    readFileSync(join(ledgerDir, file), "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { type: string }),
  );

describe("docs/connect.md", () => {
  it("uses port 8787 for the server and for every curl command", () => {
    expect(doc).toContain(`node bin/stepgate.js --http ${DOC_PORT} release-notes`);
    expect(curlCommands.filter((c) => c.startsWith("curl "))).toHaveLength(7);
    for (const command of curlCommands.filter((c) => c.startsWith("curl "))) expect(command).toContain(`http://127.0.0.1:${DOC_PORT}/mcp`);
  });

  it("has JSON configuration blocks that parse", () => {
    const documents = blocks(doc, "json").filter((b) => b.trimStart().startsWith("{"));
    expect(documents.length).toBeGreaterThanOrEqual(5);
    for (const text of documents) expect(() => JSON.parse(text.replaceAll("…", "x"))).not.toThrow();
  });

  it.skipIf(!hasCurl)("curl examples work as written, in order", async () => {
    // Variable assignments (SESSION=...) carry over: each later command runs after them.
    const prelude: string[] = [];
    const seen: string[] = [];
    for (const command of curlCommands) {
      if (/^[A-Z_]+=/.test(command)) {
        prelude.push(command);
        continue;
      }
      const run = await sh([...prelude, command].join("\n"));
      expect(run.code, `${command}\nstderr: ${run.stderr}\nstdout: ${run.stdout}`).toBe(0);
      const method = /"method":"([^"]+)"/.exec(command)?.[1] ?? (command.includes("-X DELETE") ? "DELETE" : "?");
      const session = /mcp-session-id: \$SESSION/.test(command);
      const replies = messagesOf(run.stdout) as Reply[];
      seen.push(`${method}${session ? " (session)" : ""}`);
      switch (method) {
        case "initialize":
          expect(replies[0]?.result).toMatchObject({ protocolVersion: "2025-11-25", serverInfo: { name: expect.any(String) } });
          expect(readFileSync(join(workDir, "headers.txt"), "utf8")).toMatch(/^mcp-session-id: /im);
          break;
        case "notifications/initialized":
        case "DELETE":
          expect(run.stdout).toBe("");
          break;
        case "tools/list": {
          const tools = (replies[0]?.result as { tools: { name: string }[] }).tools.map((t) => t.name);
          expect(tools).toEqual(["release-notes", "stepgate_call", "stepgate_submit", ...AUTHORING_TOOLS.map((t) => t.name)]);
          break;
        }
        case "tools/call":
          expect(replies[0]?.result).toMatchObject({ structuredContent: { state: "running", run: expect.any(String), step: { step: "group" } } });
          expect(ledgerRecords().map((r) => r.type)).toContain("run_started");
          if (!session) {
            // Without its Mcp-Name header, the same 2026-07-28 call gets the -32020 the doc shows.
            const bare = await sh([...prelude, command.replace(/ -H 'mcp-name: [^']*'/, "")].join("\n"));
            expect(bare.code).not.toBe(0);
            const refusal = messagesOf(bare.stdout)[0] as { error: { code: number; message: string } };
            expect(refusal.error.code).toBe(-32020);
            expect(doc).toContain(refusal.error.message.replaceAll('"', '\\"'));
          }
          break;
        default:
          throw new Error(`unexpected command in docs/connect.md: ${command}`);
      }
    }
    expect(seen).toEqual([
      "initialize",
      "notifications/initialized (session)",
      "tools/list (session)",
      "tools/call (session)",
      "DELETE (session)",
      "tools/list",
      "tools/call",
    ]);
    // DELETE ended the session, and with it the run the curl example started.
    expect(server.stderr()).toMatch(/session \S+ ended \(deleted\)/);
    expect(ledgerRecords().map((r) => r.type)).toContain("run_abandoned");
  });
});

describe("docs/connect.md, Requiring a token", () => {
  const tokenCommands = blocks(section("Requiring a token"), "sh").flatMap(commands);

  it("lists the commands this test runs, and the Claude Code one it cannot", () => {
    expect(tokenCommands.map((c) => c.split(" ").slice(0, 2).join(" "))).toEqual(["mkdir -p", "node bin/stepgate.js", "claude mcp", "curl -sS"]);
  });

  it.skipIf(!hasCurl)("the server writes a new token and the curl command is served with it, as written ($HOME a temporary folder)", async () => {
    const home = mkdtempSync(join(tmpdir(), "stepgate-connect-doc-home-"));
    const env = { ...process.env, HOME: home };
    const run = (script: string) =>
      new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
        const child = spawn("sh", ["-c", script], { cwd: repoRoot, env });
        let stdout = "";
        child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
        child.once("error", reject);
        child.once("close", (code) => resolve({ code, stdout }));
      });
    const [mkdir, start, , curl] = tokenCommands as [string, string, string, string];
    expect((await run(mkdir)).code).toBe(0);
    // The doc's port becomes a free one; its own process group, so stopping it stops stepgate too.
    const child = spawn("sh", ["-c", start.replace(" --http 8787 ", " --http 0 ")], { cwd: repoRoot, env, detached: true, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    try {
      const port = await new Promise<string>((resolve, reject) => {
        child.stderr!.on("data", (d: Buffer) => {
          stderr += d.toString("utf8");
          const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
          if (m) resolve(m[1]!);
        });
        child.once("exit", () => reject(new Error(`exited: ${stderr}`)));
      });
      const tokenFile = join(home, ".config/stepgate/http-token");
      const token = readFileSync(tokenFile, "utf8").trim();
      expect(stderr).toContain(`wrote a new bearer token to ${tokenFile}`);
      expect(stderr).not.toContain(token);
      const served = await run(curl.replaceAll("127.0.0.1:8787", `127.0.0.1:${port}`));
      expect(served.code).toBe(0);
      expect((messagesOf(served.stdout)[0] as Reply).result).toMatchObject({ tools: expect.arrayContaining([expect.objectContaining({ name: "release-notes" })]) });
      // The same command without its Authorization header is refused.
      expect(curl).toMatch(/-H "authorization: Bearer \$\(cat "[^"]*"\)"/);
      const without = await run(curl.replaceAll("127.0.0.1:8787", `127.0.0.1:${port}`).replace(/-H "authorization: Bearer \$\(cat "[^"]*"\)"\s*/, ""));
      expect(without.code).not.toBe(0);
      expect(without.stdout).toContain("Unauthorized");
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
      rmSync(home, { recursive: true, force: true });
    }
  });
});
