// Every shell command in README.md and docs/ either runs here, as written,
// or names where it is run, or says why no test can run it. A new command
// in the docs fails this file until one of those is true, so the docs cannot
// quietly promise a command nobody ran.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { budget, PROCESS_START_MS } from "../support/budget.js";
import { REPO_ROOT } from "../support/paths.js";

interface Command {
  where: string;
  text: string;
}

/** The commands of every ```sh block: continuation lines joined, comments dropped; in a transcript, the `$ ` lines. */
function commandsOf(doc: string): Command[] {
  const text = readFileSync(join(REPO_ROOT, doc), "utf8");
  const out: Command[] = [];
  for (const m of text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    const line = text.slice(0, m.index).split("\n").length;
    const lines = m[1]!.replace(/\\\n/g, " ").split("\n").map((l) => l.trim());
    const transcript = lines.some((l) => l.startsWith("$ "));
    for (const l of lines) {
      if (l === "" || l.startsWith("#") || (transcript && !l.startsWith("$ "))) continue;
      out.push({ where: `${doc}:${line}`, text: (transcript ? l.slice(2) : l).replace(/\s+#.*$/, "").trim() });
    }
  }
  return out;
}

const docs = ["README.md", ...readdirSync(join(REPO_ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
const commands = docs.flatMap(commandsOf);

/** Commands this file runs, from the repository root, through `sh -c` (environment assignments before them included; not those writing a token under $HOME). */
const RUN_HERE = /^([A-Z][A-Z0-9_]*=[^\s<>]+ )*node bin\/stepgate\.js(?!.*--http-token-file)( |$)/;

/** Commands another check runs as written, by the file that runs them. */
const RUN_ELSEWHERE: Array<[RegExp, string]> = [
  [/^npm (ci|test|run build|run typecheck|run lint)$/, ".ci/run"],
  [/^(curl |SESSION=\$\(awk )/, "test/http/connect-doc.test.ts"],
  [/^(mkdir -p "\$HOME\/\.config\/stepgate"|node bin\/stepgate\.js --http 8787 --http-token-file )/, "test/http/connect-doc.test.ts"],
];

/** Commands no test can run, and why. */
const NOT_RUN: Array<[RegExp, string]> = [
  [/^claude mcp add /, "needs Claude Code installed and signed in"],
  [/^npx -y node@24 "\$\(command -v npx\)" -y -p @modelcontextprotocol\/inspector@/, "downloads Node 24 and the Inspector from the npm registry"],
  [/^npm run conformance:mcp( |$)/, "downloads Node 24 and the official conformance suite from the npm registry"],
  [/^docker run .*jaegertracing\//, "needs Docker and Jaeger's image, which this machine cannot download; test/telemetry/ decodes what Stepgate sends with its own OTLP receiver"],
  [/^OTEL_EXPORTER_OTLP_ENDPOINT=https:\/\/api\.honeycomb\.io /, "sends to a vendor's service: needs an account and the internet"],
  [/^stepgate --auth /, "needs a browser and a real authorization server; test/oauth/auth-cli.test.ts drives the same flow against a loopback one"],
];

describe("commands in README.md and docs/", () => {
  it("were found", () => {
    expect(commands.filter((c) => RUN_HERE.test(c.text)).length).toBeGreaterThan(0);
  });

  it("each run here, run elsewhere (by a file that exists) or say why not", () => {
    const unplaced = commands.filter((c) => !RUN_HERE.test(c.text) && !RUN_ELSEWHERE.some(([re]) => re.test(c.text)) && !NOT_RUN.some(([re]) => re.test(c.text)));
    expect(unplaced.map((c) => `${c.where}: ${c.text}`)).toEqual([]);
    for (const [, file] of RUN_ELSEWHERE) expect(existsSync(join(REPO_ROOT, file)), file).toBe(true);
  });
});

/** Modes that print and exit; every other command serves until stopped. */
const ONE_SHOT = /(^| )--(list|help|version|verify|test|check|from-arazzo)( |$)/;

describe.each(commands.filter((c) => RUN_HERE.test(c.text)).map((c) => [`${c.where}: ${c.text}`, c] as const))("%s", (_, command) => {
  it(
    "runs as written",
    async () => {
      // The doc's port becomes a free one so the test never collides with a user's server; nothing else changes.
      const http = / --http 8787 /.test(command.text);
      const text = command.text.replace(" --http 8787 ", " --http 0 ");
      // Its own process group, so stopping it stops stepgate too, not only the shell.
      const child = spawn("sh", ["-c", text], { cwd: REPO_ROOT, detached: true, stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
      const until = (seen: () => boolean, what: string) =>
        new Promise<void>((done, fail) => {
          const timer = setTimeout(() => fail(new Error(`no ${what} within ${PROCESS_START_MS} ms; stderr: ${stderr}`)), PROCESS_START_MS);
          const check = () => {
            if (!seen()) return;
            clearTimeout(timer);
            done();
          };
          child.stdout.on("data", check);
          child.stderr.on("data", check);
          void exited.then(() => {
            check();
            clearTimeout(timer);
            fail(new Error(`exited before ${what}; stderr: ${stderr}`));
          });
        });
      try {
        if (ONE_SHOT.test(text)) {
          child.stdin.end();
          expect(await exited, stderr).toBe(0);
        } else if (http) {
          await until(() => /listening on http:\/\/127\.0\.0\.1:\d+\/mcp/.test(stderr), "listening line");
        } else {
          // A stdio server: it must answer initialize, then end when its client closes stdin.
          child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "doc-commands", version: "0" } } })}\n`);
          await until(() => stdout.includes("\n"), "reply to initialize");
          expect(JSON.parse(stdout.split("\n")[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: "stepgate" } } });
          child.stdin.end();
          expect(await exited, stderr).toBe(0);
        }
      } finally {
        if (child.exitCode === null) process.kill(-child.pid!, "SIGTERM");
        await exited;
      }
    },
    budget({ starts: 1, replies: 1 }),
  );
});
