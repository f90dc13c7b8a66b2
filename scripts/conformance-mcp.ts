// `npm run conformance:mcp`: the official MCP conformance suite's generic
// server scenarios against the REAL `stepgate --http` (the built CLI serving
// the bundled release-notes stepfile), not a stand-in factory, so what passes
// here is what users run. Opt-in, not part of `npm test`: it needs the npm
// registry (or a warm npx cache) for node@24 and the suite, which requires
// Node 24 while Stepgate itself supports Node 20.
//
//   npm run conformance:mcp                       # start the CLI, run the seven default scenarios
//   npm run conformance:mcp -- --url http://127.0.0.1:8787/mcp   # an already running server
//   npm run conformance:mcp -- --scenario ping    # one scenario (repeatable)
//
// Exits 1 when any scenario fails, 2 on a usage error.
//
// Scenarios of the suite left out, and why: tools-call-with-progress and
// tools-call-with-logging call the suite's own fixture tools
// (test_tool_with_progress, test_tool_with_logging), and Stepgate's tools are
// the stepfiles it serves; test/mcp/progress-logging.test.ts checks the same
// notifications from a real stepfile run with the SDK's client. Likewise the
// tools-call-*, prompts-*, completion-*, elicitation-* and
// json-schema-2020-12 scenarios, and the resources-* ones past
// resources-list (which reads whatever a server lists), need fixture tools,
// prompts or resources (`test://static-text`) Stepgate does not serve, and
// server-sse-polling needs an event store for resumable streams, which HTTP
// mode does not keep (docs/architecture.md); server-sse-multiple-streams
// needs none. Run against 0.1.16 on 2026-12-01: all seven pass.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { parseArgs } from "node:util";
import { startCliServer, type CliServer } from "../test/http/fixtures/cli-server.js";

const SUITE = "@modelcontextprotocol/conformance@0.1.16";
const DEFAULT_SCENARIOS = ["server-initialize", "ping", "tools-list", "logging-set-level", "dns-rebinding-protection", "resources-list", "server-sse-multiple-streams"];

function parseCommandLine() {
  try {
    return parseArgs({ options: { url: { type: "string" }, scenario: { type: "string", multiple: true } } });
  } catch (error) {
    process.stderr.write(`conformance:mcp: ${(error as Error).message}\n`);
    process.exit(2);
  }
}
const parsed = parseCommandLine();
const scenarios = parsed.values.scenario ?? DEFAULT_SCENARIOS;

/** npx's own script, so it can be run by node@24 (see runScenario). */
function npxScript(): string {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (existsSync(join(dir, "npx"))) return join(dir, "npx");
  }
  process.stderr.write("conformance:mcp: npx is not on PATH\n");
  process.exit(2);
}

/** Runs one scenario through npx, its output streamed through; resolves to whether it passed. */
function runScenario(url: string, scenario: string): Promise<boolean> {
  return new Promise((done) => {
    // npx itself runs under node@24, so installing the suite (which needs
    // Node 22+) prints no EBADENGINE warnings on an older Node.
    const child = spawn("npx", ["-y", "node@24", npxScript(), "-y", "-p", SUITE, "conformance", "server", "--url", url, "--scenario", scenario], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.once("error", (error) => {
      process.stderr.write(`conformance:mcp: cannot run npx: ${error.message}\n`);
      done(false);
    });
    child.once("exit", (code) => done(code === 0));
  });
}

let server: CliServer | undefined;
// A private ledger dir keeps the runs tools-list or a probe might start out of stderr and out of the user's files.
const ledgerDir = mkdtempSync(join(tmpdir(), "stepgate-conformance-"));
const results: [string, boolean][] = [];
try {
  let url = parsed.values.url;
  if (url === undefined) {
    server = await startCliServer(["--ledger-dir", ledgerDir, "release-notes"]);
    url = server.url;
    process.stdout.write(`conformance:mcp: started stepgate --http (pid ${server.child.pid}) at ${url}\n`);
  }
  for (const scenario of scenarios) {
    process.stdout.write(`\n=== ${scenario} (${url})\n`);
    const passed = await runScenario(url, scenario);
    results.push([scenario, passed]);
    process.stdout.write(`=== ${scenario}: ${passed ? "PASS" : "FAIL"}\n`);
  }
} finally {
  await server?.stop();
  rmSync(ledgerDir, { recursive: true, force: true });
}

const failed = results.filter(([, passed]) => !passed);
process.stdout.write(`\nconformance:mcp: ${results.length - failed.length} of ${results.length} scenarios passed\n`);
for (const [scenario, passed] of results) process.stdout.write(`  ${passed ? "PASS" : "FAIL"} ${scenario}\n`);
process.exitCode = failed.length > 0 ? 1 : 0;
