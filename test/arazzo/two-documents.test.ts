// Arazzo written the way Redocly's museum example is (Redocly/museum-openapi-example
// at 2770b2b, arazzo/museum-api.arazzo.yaml): a workflow of another Arazzo
// document, `<source>.<operationId>`, an operationPath naming its source as
// `$sourceDescriptions.<name>`, and the credential passed as an Authorization
// parameter. Our own documents with those constructs
// (test/arazzo/fixtures/library/) are checked, served by the built CLI over
// stdio with the SDK client, and run by Redocly Respect (@redocly/cli,
// pinned in package.json), against one loopback library
// (test/arazzo/support/library.ts, 127.0.0.1 only): both send the same
// requests and reach the same outputs, and the credential that reaches the
// API is the one Stepgate holds, never the value written in the document.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { cli } from "../support/cli-exec.js";
import { REPO_ROOT } from "../support/paths.js";
import { cliEnvironment, spawnStepgate } from "../support/stepgate.js";
import { startLibrary, type Library } from "./support/library.js";

const run = promisify(execFile);
const FIXTURES = resolve(REPO_ROOT, "test", "arazzo", "fixtures", "library");
const ISBN = "9780141439518";
const OUTPUTS = { loanId: "loan-1", title: "Pride and Prejudice", closes: "18:00" };

let library: Library;
let dir: string;
let document: string;

beforeAll(async () => {
  // The documents' own value, `Basic Og==`, is the empty user and password (":"), which this library accepts.
  library = await startLibrary(":");
  dir = mkdtempSync(join(tmpdir(), "stepgate-arazzo-two-"));
  writeFileSync(join(dir, "library.openapi.json"), JSON.stringify(library.document, null, 2));
  mkdirSync(join(dir, "workflows"));
  for (const f of ["borrow.arazzo.yaml", "loans.arazzo.yaml"]) cpSync(join(FIXTURES, f), join(dir, "workflows", f));
  document = join(dir, "workflows", "borrow.arazzo.yaml");
});
afterAll(async () => {
  await library.close();
  rmSync(dir, { recursive: true, force: true });
});

const seen = () => library.requests.map((r) => `${r.method} ${r.path}${r.body === undefined ? "" : ` ${JSON.stringify(r.body)}`}`);

/** Serve the document, run borrow-book once; the run's final reply and what the library saw. */
async function served(credential: string): Promise<{ state: string; outputs: unknown; requests: string[]; authorizations: (string | undefined)[]; stderr: string }> {
  library.reset();
  const server = await spawnStepgate(["--ledger-dir", join(dir, `ledgers-${library.requests.length}-${Date.now()}`), document], { LIBRARY_AUTH_API_KEY: credential });
  let content: { state: string; outputs?: { outputs?: unknown } };
  try {
    await server.client.listTools();
    content = (await server.client.callTool({ name: "borrow-book", arguments: { isbn: ISBN } })).structuredContent as typeof content;
  } finally {
    await server.close();
  }
  // Read after the session ends: load warnings are printed once the first tools/list is answered, or at the end at the latest.
  return { state: content.state, outputs: content.outputs?.outputs, requests: seen(), authorizations: library.requests.map((r) => r.authorization), stderr: server.stderr() };
}

describe("an Arazzo document that runs another document's workflow", () => {
  it("--check converts it with no error, and warns where a written Authorization value is replaced by the credential", async () => {
    const checked = await cli("--check", "--json", document);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    const findings = JSON.parse(checked.stdout) as { files: { errors: unknown[]; warnings: { rule: string; message: string; line?: number }[] }[] };
    const [file] = findings.files;
    expect(file!.errors).toEqual([]);
    expect(file!.warnings.map((w) => w.rule)).toEqual(["arazzo-credential-parameter", "arazzo-credential-parameter"]);
    expect(file!.warnings[0]!.message).toContain("workflow borrowBook, steps readHours, findBook: parameter Authorization (in header) is not sent as written");
    expect(file!.warnings[0]!.message).toContain("read from LIBRARY_AUTH_API_KEY");
    expect(file!.warnings[1]!.message).toContain("workflow $sourceDescriptions.loans.workflows.lendBook, step createLoan");
    // The value itself is never repeated.
    expect(checked.stdout).not.toContain("Og==");
  }, budget({ starts: 1 }));

  it("--from-arazzo writes one stepfile whose one tool exposes both documents' operations, and no Authorization value", async () => {
    const out = join(dir, "stepfiles");
    const written = await cli("--from-arazzo", document, "--out", out);
    expect(written.code, written.stderr).toBe(0);
    expect(readdirSync(out)).toEqual(["borrowBook.stepfile.yaml"]);
    const text = readFileSync(join(out, "borrowBook.stepfile.yaml"), "utf8");
    expect(text).toMatch(/tools:\n {2}library:\n/);
    expect(text).toMatch(/exposes:\n {6}- getHours\n {6}- getBook\n {6}- createLoan\n/);
    expect(text).toContain("kind: basic");
    expect(text).not.toContain("Og==");
    expect(text).not.toContain("Authorization");
  }, budget({ starts: 1 }));

  it("Stepgate and Respect send the same requests and reach the same outputs", async () => {
    const stepgate = await served(":");
    expect(stepgate.state, stepgate.stderr).toBe("finished");
    expect(stepgate.outputs).toEqual(OUTPUTS);
    // Serving says what --check says: the written Authorization value is not what is sent.
    expect(stepgate.stderr).toMatch(/stepgate: warning: .*borrow\.arazzo\.yaml#borrowBook:\d+:\d+ workflows\[0\]: workflow borrowBook, steps readHours, findBook: parameter Authorization \(in header\) is not sent as written/);
    expect(stepgate.stderr).toContain("workflow $sourceDescriptions.loans.workflows.lendBook, step createLoan: parameter Authorization");

    library.reset();
    const report = join(dir, "respect.json");
    const env = { ...cliEnvironment(), REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
    const args = [resolve(REPO_ROOT, "node_modules", "@redocly", "cli", "bin", "cli.js"), "respect", document, "--json-output", report, "--workflow", "borrowBook", "--input", `isbn=${ISBN}`];
    await run(process.execPath, args, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 }).catch((error: { stdout?: string }) => {
      throw new Error(`redocly respect failed:\n${error.stdout ?? String(error)}`);
    });
    const json = JSON.parse(readFileSync(report, "utf8")) as { files: Record<string, { executedWorkflows: { workflowId: string; status: string }[] }> };
    expect(Object.values(json.files)[0]!.executedWorkflows.find((w) => w.workflowId === "borrowBook")?.status).toBe("success");

    const expected = ["GET /hours", `GET /books/${ISBN}`, `POST /loans {"isbn":"${ISBN}"}`];
    expect(stepgate.requests).toEqual(expected);
    expect(seen()).toEqual(expected);
    expect(stepgate.authorizations).toEqual(["Basic Og==", "Basic Og==", "Basic Og=="]);
  }, budget({ starts: 2, replies: 4 }));

  it("sends the credential Stepgate holds, not the value the document writes", async () => {
    await library.close();
    library = await startLibrary("reader:open-sesame");
    writeFileSync(join(dir, "library.openapi.json"), JSON.stringify(library.document, null, 2));
    const stepgate = await served("reader:open-sesame");
    expect(stepgate.state, stepgate.stderr).toBe("finished");
    const sent = `Basic ${Buffer.from("reader:open-sesame").toString("base64")}`;
    expect(stepgate.authorizations).toEqual([sent, sent, sent]);
    expect(stepgate.stderr).not.toContain("open-sesame");
  }, budget({ starts: 1, replies: 2 }));
});
