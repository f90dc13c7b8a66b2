// An MCP tool exposing a name its server does not list: preflight refuses
// the stepfile ("<url> lists no tool named ..."), so `stepgate --check`
// (the built CLI) and stepgate_validate (an MCP client over stdio) say so
// beforehand, exposes-in-mcp-listing, at the exposes entry, with the
// nearest listed names. The server, on 127.0.0.1, is listed whatever calls
// its tools (an agent step or only mechanical ones); one not listed
// (--offline, a host drafts may not reach) says nothing of the names.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkedWarnings, type Finding } from "../support/check-findings.js";
import { cli } from "../support/cli-exec.js";
import { startMcpFixture, type McpFixture, type McpFixtureTool } from "../support/mcp-fixture.js";
import { placeOf } from "../support/place-of.js";
import { validateClients } from "../support/validate-clients.js";

const TOOLS: McpFixtureTool[] = [
  { name: "search_issues", inputSchema: { type: "object", properties: { q: { type: "string" } } }, text: "[]", annotations: { readOnlyHint: true } },
  { name: "create_issue", inputSchema: { type: "object", properties: { title: { type: "string" } } }, text: '{"id":"T-1"}' },
  { name: "close_issue", inputSchema: { type: "object", properties: { id: { type: "string" } } }, text: "closed" },
];

let tracker: McpFixture;
const dir = mkdtempSync(join(tmpdir(), "stepgate-mcp-exposes-"));

/** A stepfile exposing `names` of the tracker: `read` as effect: read entries to an agent step, `made` to a mechanical step's calls. */
function stepfile(url: string, names: { read: string[]; made: string[] }): string {
  const exposes = [...names.read.map((n) => `      - { name: ${n}, effect: read }`), ...names.made.map((n) => `      - ${n}`)].join("\n");
  const agent = names.read.length
    ? `  - id: draft
    instructions: "Draft an issue for {{inputs.report}}; look for duplicates first."
    tools: [${names.read.join(", ")}]
    produces: { type: object, required: [title], properties: { title: { type: string } } }
    gates:
      - id: person
        approve: { message: File this issue? }
`
    : "";
  const calls = names.made.map((n, i) => `        - { id: call${i}, operation: ${n}, arguments: { title: { var: inputs.report } } }`).join("\n");
  return `stepgate: "1"
id: file-issue
inputs: { type: object, required: [report], properties: { report: { type: string } } }
tools:
  tracker:
    mcp: { url: "${url}" }
    exposes:
${exposes}
steps:
${agent}  - id: file
    do:
      calls:
${calls}
      output: { filed: true }
    produces: { type: object, required: [filed], properties: { filed: { type: boolean } } }
`;
}

const WRONG = { read: ["search_isues", "clos_issue"], made: ["create_issue", "frobnicate"] };
const RIGHT = { read: ["search_issues", "close_issue"], made: ["create_issue"] };

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** The finding for the exposes entry that starts with `entry`, saying `hint` after the shared text. */
function finding(text: string, index: number, entry: string, name: string, hint: string): Finding {
  return {
    rule: "exposes-in-mcp-listing",
    path: `tools.tracker.exposes[${index}]`,
    ...placeOf(text, entry, text.indexOf("    exposes:")),
    message: `tool tracker's MCP server (${tracker.origin}/mcp) lists no tool named ${name}, so preflight would refuse the stepfile and every run would fail before its first step${hint}`,
  };
}

function expected(text: string): Finding[] {
  return [
    finding(text, 0, "{ name: search_isues", "search_isues", "; did you mean search_issues?"),
    finding(text, 1, "{ name: clos_issue", "clos_issue", "; did you mean close_issue?"),
    finding(text, 3, "frobnicate", "frobnicate", " (it lists search_issues, create_issue, close_issue)"),
  ];
}

beforeAll(async () => {
  tracker = await startMcpFixture({ tools: TOOLS });
});
afterAll(async () => {
  await tracker.close();
});

describe("stepgate --check with an exposed name its MCP server does not list", () => {
  it("reports each such exposes entry at its line:column, with the nearest listed names", async () => {
    const text = stepfile(`${tracker.origin}/mcp`, WRONG);
    const run = await checkedWarnings(write("wrong.stepfile.yaml", text));
    expect(run.code, run.stderr).toBe(0);
    expect(run.warnings).toEqual(expected(text));
  }, 60_000);

  it("lists a server whose tools only mechanical steps call, and reports there too", async () => {
    const text = stepfile(`${tracker.origin}/mcp`, { read: [], made: ["create_isue"] });
    tracker.received.length = 0;
    const run = await checkedWarnings(write("mechanical.stepfile.yaml", text));
    expect(run.warnings).toEqual([finding(text, 0, "create_isue", "create_isue", "; did you mean create_issue?")]);
    expect(tracker.received.length).toBeGreaterThan(0);
    for (const r of tracker.received) expect(r.headers.authorization).toBeUndefined();
  }, 60_000);

  it("finds nothing when every exposed name is listed, and judges no name with --offline", async () => {
    const right = await cli("--check", "--strict", write("right.stepfile.yaml", stepfile(`${tracker.origin}/mcp`, RIGHT)));
    expect(right.code, right.stdout + right.stderr).toBe(0);
    expect(right.stdout).toContain("0 errors, 0 warnings");
    tracker.received.length = 0;
    const offline = await cli("--check", "--strict", "--offline", write("offline.stepfile.yaml", stepfile(`${tracker.origin}/mcp`, WRONG)));
    expect(offline.code, offline.stdout + offline.stderr).toBe(0);
    expect(offline.stdout).toContain("0 errors, 0 warnings");
    expect(tracker.received).toEqual([]);
  }, 60_000);
});

describe("stepgate_validate with an exposed name its MCP server does not list", () => {
  const clients = validateClients<Finding>(() => tracker.host);

  it("gives what --check gives, from a host granted with --draft-host, and nothing once the names are listed", async () => {
    const text = stepfile(`${tracker.origin}/mcp`, WRONG);
    expect((await clients.granted(text)).structuredContent.warnings).toEqual(expected(text));
    expect((await clients.granted(stepfile(`${tracker.origin}/mcp`, RIGHT))).structuredContent.warnings).toBeUndefined();
  }, 60_000);

  it("says nothing of the names when drafts may not reach the host", async () => {
    expect((await clients.ungranted(stepfile(`${tracker.origin}/mcp`, WRONG))).structuredContent.warnings).toBeUndefined();
  }, 60_000);
});
