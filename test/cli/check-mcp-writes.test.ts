// A remote MCP tool in an agent step's tools: whether the agent may change
// something through it is known only from its server's tools/list
// (readOnlyHint). `stepgate --check` (the built CLI) and stepgate_validate
// (an MCP client over stdio) list the server on 127.0.0.1 as preflight
// would, with no credential, and report agent-write for a tool it does not
// mark read-only; when the server is not listed (--offline, nothing
// listening, a server that asks for a credential, a host drafts may not
// reach) mcp-tools-unlisted names the tools that were not judged.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, stepgateBin } from "../support/paths.js";
import { startMcpFixture, type McpFixture, type McpFixtureTool } from "../support/mcp-fixture.js";
import { validateClients } from "../support/validate-clients.js";
import { placeOf } from "../support/place-of.js";

interface Finding {
  path: string;
  message: string;
  line: number;
  column: number;
  rule: string;
}
interface Report {
  ok: boolean;
  warnings: number;
  files: Array<{ file: string; warnings: Finding[] }>;
}

const TOOLS: McpFixtureTool[] = [
  { name: "create_issue", inputSchema: { type: "object", properties: { title: { type: "string" } } }, text: '{"id":"T-1"}' },
  { name: "search_issues", inputSchema: { type: "object", properties: { q: { type: "string" } } }, text: "[]", annotations: { readOnlyHint: true } },
  { name: "close_issue", inputSchema: { type: "object", properties: { id: { type: "string" } } }, text: "closed", annotations: { readOnlyHint: false, destructiveHint: true } },
];
const TOKEN = "tracker-secret-7f3a";

let open: McpFixture;
let guarded: McpFixture;
const dir = mkdtempSync(join(tmpdir(), "stepgate-mcp-writes-"));

/** A stepfile whose one agent step lists `agentTools` of a tracker at `url`; `exposes` as written in the file. */
function stepfile(url: string, agentTools: string[], options: { exposes?: string; credential?: boolean; mechanical?: string } = {}): string {
  const credential = options.credential ? `credentials:\n  tracker: { kind: bearer, hosts: ["${new URL(url).host}"], description: The tracker's token. }\n` : "";
  const mechanical = options.mechanical
    ? `  - id: file
    do:
      calls:
        - { id: made, operation: ${options.mechanical}, arguments: { title: { var: steps.draft.title } } }
      output: { id: { var: calls.made.result.id } }
    produces: { type: object, required: [id], properties: { id: { type: string } } }
`
    : "";
  return `stepgate: "1"
id: file-issue
inputs: { type: object, required: [report], properties: { report: { type: string } } }
${credential}tools:
  tracker:
    mcp: { url: "${url}" }
${options.credential ? "    credential: tracker\n" : ""}    exposes: ${options.exposes ?? "[create_issue, search_issues, close_issue]"}
steps:
  - id: draft
    instructions: "Draft an issue for {{inputs.report}}; look for duplicates first."
    tools: [${agentTools.join(", ")}]
    produces: { type: object, required: [title], properties: { title: { type: string } } }
    gates:
      - id: person
        approve: { message: File this issue? }
${mechanical}`;
}

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const exec = promisify(execFile);
async function check(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [stepgateBin(), "--check", ...args], { cwd: REPO_ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  open = await startMcpFixture({ tools: TOOLS });
  guarded = await startMcpFixture({ tools: TOOLS, token: TOKEN });
});
afterAll(async () => {
  await open.close();
  await guarded.close();
});

describe("stepgate --check with an MCP tool in an agent step", () => {
  it("reports agent-write for each tool its server does not mark read-only, at its line:column, and nothing for a read", async () => {
    const text = stepfile(`${open.origin}/mcp`, ["search_issues", "create_issue", "close_issue"]);
    const file = write("writes.stepfile.yaml", text);
    open.received.length = 0;
    const run = await check(["--json", file]);
    expect(run.code, run.stderr).toBe(0);
    const [report] = (JSON.parse(run.stdout) as Report).files;
    expect(report!.warnings.map((w) => [w.rule, w.path])).toEqual([
      ["agent-write", "steps[0].tools[1]"],
      ["agent-write", "steps[0].tools[2]"],
    ]);
    const toolsLine = text.indexOf("    tools: [");
    expect(report!.warnings[0]).toMatchObject(placeOf(text, "create_issue", toolsLine));
    expect(report!.warnings[1]).toMatchObject(placeOf(text, "close_issue", toolsLine));
    expect(report!.warnings[0]!.message).toBe(
      "create_issue (a tool of MCP server tracker, whose tools/list does not mark it readOnlyHint: true) may change something, and step draft's agent may call it with any arguments, any number of times, before any gate of the step runs, " +
        "and the approve gate person asks the person only after those calls are made; to gate the write, take create_issue out of tools and call it from a mechanical step after draft, with arguments computed from the approved output " +
        "(do: { calls: [{ id: ..., operation: create_issue, arguments: { ...: { var: steps.draft.<field> } } }] }); if it changes nothing, declare { name: create_issue, effect: read } in exposes",
    );
    // Listed as preflight lists it (initialize and tools/list POSTed to the server's url, and the SDK's GET for a stream), with no credential.
    expect(open.received.filter((r) => r.method === "POST").map((r) => (JSON.parse(r.body) as { method: string }).method)).toEqual(["initialize", "notifications/initialized", "tools/list"]);
    for (const r of open.received) expect(`${r.path} ${r.headers.authorization ?? "no credential"}`).toBe("/mcp no credential");
    expect((await check(["--strict", file])).code).toBe(1);
  }, 60_000);

  it("finds nothing once the write is a mechanical step after the approval, or every agent-step tool is declared effect: read", async () => {
    const gated = write("gated.stepfile.yaml", stepfile(`${open.origin}/mcp`, ["search_issues"], { mechanical: "create_issue" }));
    const declared = write("declared.stepfile.yaml", stepfile(`${open.origin}/mcp`, ["search_issues"], { exposes: "[create_issue, { name: search_issues, effect: read }]", mechanical: "create_issue" }));
    open.received.length = 0;
    const run = await check(["--strict", "--json", gated]);
    expect(run.code, run.stdout).toBe(0);
    expect(open.received.length).toBeGreaterThan(0);
    // Nothing is left that agent-write must judge when the agent's tools are declared reads: unlisted (--offline), the server is no finding.
    open.received.length = 0;
    const quiet = await check(["--strict", "--offline", declared]);
    expect(quiet.code, quiet.stdout).toBe(0);
    expect(quiet.stdout).toContain("0 errors, 0 warnings");
    expect(open.received).toEqual([]);
  }, 60_000);

  it("says which tools were not judged when the server asks for a credential, and sends none even when the operator's environment holds it", async () => {
    const text = stepfile(`${guarded.origin}/mcp`, ["create_issue"], { credential: true });
    const file = write("guarded.stepfile.yaml", text);
    guarded.received.length = 0;
    const run = await check(["--json", file], { TRACKER_API_KEY: TOKEN });
    expect(run.code, run.stderr).toBe(0);
    const [report] = (JSON.parse(run.stdout) as Report).files;
    expect(report!.warnings).toEqual([
      {
        rule: "mcp-tools-unlisted",
        path: "tools.tracker.mcp.url",
        ...placeOf(text, `"${guarded.origin}/mcp"`),
        message:
          `tool tracker's MCP server could not be listed: ${guarded.origin}/mcp answered HTTP 401: it asks for a credential, and a check sends none (--offline checks without fetching), so agent-write did not judge create_issue, ` +
          "which an agent step may call with any arguments, any number of times, before any gate of the step: declare { name: ..., effect: read } in exposes for a tool that only reads, " +
          `call one that changes something from a mechanical step after the step a person approves, or check where ${guarded.origin}/mcp can be listed`,
      },
    ]);
    expect(guarded.received.length).toBeGreaterThan(0);
    for (const r of guarded.received) expect(r.headers.authorization).toBeUndefined();
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  }, 60_000);

  it("with --offline, lists nothing and says so; --strict fails on it", async () => {
    const file = write("offline.stepfile.yaml", stepfile(`${open.origin}/mcp`, ["create_issue"]));
    open.received.length = 0;
    const run = await check(["--offline", file]);
    expect(run.code, run.stdout).toBe(0);
    expect(open.received).toEqual([]);
    expect(run.stdout).toMatch(/: warning: tools\.tracker\.mcp\.url: tool tracker's MCP server was not listed \(--offline skips fetching\), so agent-write did not judge create_issue, .*\[mcp-tools-unlisted\]/);
    expect(run.stdout).not.toContain("[agent-write]");
    expect((await check(["--offline", "--strict", file])).code).toBe(1);
  }, 60_000);
});

describe("stepgate_validate with an MCP tool in an agent step", () => {
  const clients = validateClients<Finding>(() => open.host);

  it("gives what --check gives, from a host granted with --draft-host", async () => {
    const text = stepfile(`${open.origin}/mcp`, ["search_issues", "create_issue", "close_issue"]);
    const [report] = (JSON.parse((await check(["--json", write("validate.stepfile.yaml", text)])).stdout) as Report).files;
    const answer = await clients.granted(text);
    expect(answer.structuredContent.warnings).toEqual(report!.warnings);
    expect(answer.content[0]!.text).toContain("[agent-write]");
    expect((await clients.granted(stepfile(`${open.origin}/mcp`, ["search_issues"], { mechanical: "create_issue" }))).structuredContent.warnings).toBeUndefined();
  }, 60_000);

  it("says the tools were not judged when drafts may not reach the host", async () => {
    const answer = await clients.ungranted(stepfile(`${open.origin}/mcp`, ["create_issue"]));
    expect(answer.structuredContent.warnings).toEqual([
      expect.objectContaining({
        rule: "mcp-tools-unlisted",
        path: "tools.tracker.mcp.url",
        message: expect.stringMatching(/could not be listed: .*127\.0\.0\.1 is this machine, which drafts reach \(over http:\/\/ too\) only once the operator grants it with --draft-host 127\.0\.0\.1:\d+.*agent-write did not judge create_issue/) as unknown as string,
      }),
    ]);
  }, 60_000);
});
