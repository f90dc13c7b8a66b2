// `npm run conformance:mcp`: the official MCP conformance suite's generic
// server scenarios against the REAL `stepgate --http` (the built CLI serving
// the bundled release-notes stepfile), not a stand-in factory, so what passes
// here is what users run. Opt-in, not part of `npm test`: it needs the npm
// registry (or a warm npx cache) for node@24 and the suite, which requires
// Node 24 while Stepgate itself supports Node 20.
//
//   npm run conformance:mcp                       # start the CLI, run all four scenarios
//   npm run conformance:mcp -- --url http://127.0.0.1:8787/mcp   # an already running server
//   npm run conformance:mcp -- --scenario ping    # one scenario (repeatable)
//
// Exits 1 when any scenario fails, 2 on a usage error.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startCliServer, type CliServer } from "../test/http/fixtures/cli-server.js";

const SUITE = "@modelcontextprotocol/conformance@0.1.16";
const DEFAULT_SCENARIOS = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];

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

/** Runs one scenario through npx, its output streamed through; resolves to whether it passed. */
function runScenario(url: string, scenario: string): Promise<boolean> {
  return new Promise((done) => {
    // `-c` runs the suite's bin with node@24 first on PATH; the URL and
    // scenario names contain no shell metacharacters (checked below).
    const child = spawn("npx", ["-y", "-p", "node@24", "-p", SUITE, "-c", `conformance server --url ${url} --scenario ${scenario}`], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.once("error", (error) => {
      process.stderr.write(`conformance:mcp: cannot run npx: ${error.message}\n`);
      done(false);
    });
    child.once("exit", (code) => done(code === 0));
  });
}

const SAFE = /^[A-Za-z0-9:/._-]+$/;
for (const value of [parsed.values.url ?? "", ...scenarios]) {
  if (value !== "" && !SAFE.test(value)) {
    process.stderr.write(`conformance:mcp: refusing ${JSON.stringify(value)}: only letters, digits and :/._- are passed to the shell\n`);
    process.exit(2);
  }
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
