// Paths into a remote MCP tool's results, judged by the outputSchema its
// server's tools/list declares, as paths into an OpenAPI operation's
// results are judged by its response schemas (undeclared-path).
// `stepgate --check` (the built CLI) and stepgate_validate (an MCP client
// over stdio) list the server on 127.0.0.1. What a call's result holds is
// the tool's structuredContent, which a result that is not an error must
// match the outputSchema with; an error result is held to nothing, so
// calls[].result is judged only where the calls are narrowed to successes
// (and `results`, `responses.<id>` and `select`, which read successes only).
// A tool that declares no outputSchema, or a server not listed, is judged
// by nothing.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkedWarnings, type Finding } from "../support/check-findings.js";
import { cli } from "../support/cli-exec.js";
import { startMcpFixture, type McpFixture, type McpFixtureTool } from "../support/mcp-fixture.js";
import { placeOf } from "../support/place-of.js";
import { validateClients } from "../support/validate-clients.js";

const ISSUE = { type: "object", required: ["id", "state"], properties: { id: { type: "string" }, state: { type: "string" } } };
const TOOLS: McpFixtureTool[] = [
  {
    name: "search_issues",
    inputSchema: { type: "object", properties: { q: { type: "string" } } },
    outputSchema: { type: "object", required: ["issues", "total"], properties: { issues: { type: "array", items: { $ref: "#/$defs/issue" } }, total: { type: "integer" } }, $defs: { issue: ISSUE } },
    text: '{"issues":[],"total":0}',
    annotations: { readOnlyHint: true },
  },
  { name: "create_issue", inputSchema: { type: "object", properties: { title: { type: "string" } } }, outputSchema: ISSUE, text: '{"id":"T-1","state":"open"}' },
  // No outputSchema: what its result holds is not known.
  { name: "close_issue", inputSchema: { type: "object", properties: { id: { type: "string" } } }, text: "closed" },
];

let tracker: McpFixture;
const dir = mkdtempSync(join(tmpdir(), "stepgate-mcp-results-"));

/** The paths each stepfile reads, wrong (a name no outputSchema declares) or right. */
interface Paths {
  /** Read with results from search_issues. */
  results: string;
  /** Read from each successful call of the agent step (an MCP tool and an inline OpenAPI operation). */
  success: string;
  /** Read from create_issue's response in a mechanical step. */
  response: string;
  /** Read by the select of search_issues. */
  select: string;
}

/**
 * A triage: an agent step searching the tracker (MCP) and reading an issue
 * from the shop's API (OpenAPI, inline), then a mechanical step filing and
 * closing. The paths that read no declared result (close_issue's, every
 * call's unnarrowed) are the same in both files.
 */
function stepfile(url: string, paths: Paths): string {
  return `stepgate: "1"
id: triage
inputs: { type: object, required: [report], properties: { report: { type: string } } }
tools:
  tracker:
    mcp: { url: "${url}" }
    exposes:
      - { name: search_issues, effect: read, select: { var: ${paths.select} } }
      - create_issue
      - close_issue
  shop:
    openapi:
      server: http://127.0.0.1:9
      document:
        openapi: 3.1.0
        info: { title: Shop, version: "1" }
        paths:
          /issues/{id}:
            get:
              operationId: getIssue
              parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
              responses:
                "200": { description: the issue, content: { application/json: { schema: { type: object, properties: { state: { type: string }, owner: { type: string } } } } } }
    exposes: [getIssue]
steps:
  - id: look
    instructions: "Look for issues like {{inputs.report}}."
    tools: [search_issues, getIssue]
    let:
      found: { results: [search_issues, "${paths.results}"] }
      anything: { var: calls.0.result.whatever }
    produces: { type: object, required: [duplicate], properties: { duplicate: { type: boolean } } }
    gates:
      - id: searched
        message: look in the tracker first
        predicate: { some: [{ filter: [{ var: calls }, { "!": { var: is_error } }] }, { "!=": [{ var: ${paths.success} }, null] }] }
        explain: { var: let.found }
  - id: file
    do:
      calls:
        - { id: made, operation: create_issue, arguments: { title: { var: inputs.report } } }
        - { id: closed, operation: close_issue, arguments: { id: "T-0" } }
      output: { id: { var: ${paths.response} }, closed: { var: responses.closed.whatever } }
    produces: { type: object, required: [id], properties: { id: { type: string } } }
`;
}

const WRONG: Paths = { results: "isues", success: "result.stat", response: "responses.made.ident", select: "totl" };
const RIGHT: Paths = { results: "issues", success: "result.state", response: "responses.made.id", select: "total" };

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

beforeAll(async () => {
  tracker = await startMcpFixture({ tools: TOOLS });
});
afterAll(async () => {
  await tracker.close();
});

/** What --check says of the wrong paths, in the file's order. */
function expected(text: string): Finding[] {
  const selectAt = text.indexOf("select:");
  return [
    {
      rule: "undeclared-path",
      path: "tools.tracker.exposes[0].select.var",
      ...placeOf(text, "totl", selectAt),
      message: '"totl": the outputSchema of search_issues (tools/list of tracker) declares no property totl there (the object is open, so an answer may hold more than it documents, but nothing says it holds this), so it would be null at run time; did you mean total?',
    },
    {
      rule: "undeclared-path",
      path: "steps[0].let.found.results[1]",
      ...placeOf(text, '"isues"'),
      message: '"isues": the outputSchema of search_issues (tools/list of tracker) declares no property isues there (the object is open, so an answer may hold more than it documents, but nothing says it holds this), so results would give nothing from it; did you mean issues?',
    },
    {
      rule: "undeclared-path",
      path: 'steps[0].gates[0].predicate.some[1]["!="][0].var',
      ...placeOf(text, "result.stat"),
      message:
        '"result.stat": each success response of search_issues, getIssue declares no property stat there (the object is open, so an answer may hold more than it documents, but nothing says it holds this), so it would be null at run time; did you mean result.state?',
    },
    {
      rule: "undeclared-path",
      path: "steps[1].do.output.id.var",
      ...placeOf(text, "responses.made.ident"),
      message:
        '"responses.made.ident": the outputSchema of create_issue (tools/list of tracker) declares no property ident there (the object is open, so an answer may hold more than it documents, but nothing says it holds this), so it would be null at run time (it declares id, state)',
    },
  ];
}

describe("stepgate --check with paths into an MCP tool's results", () => {
  it("reports each path the listed outputSchemas rule out, at its line:column, and nothing where no outputSchema says what the result holds", async () => {
    const text = stepfile(`${tracker.origin}/mcp`, WRONG);
    const run = await checkedWarnings(write("wrong.stepfile.yaml", text));
    expect(run.code, run.stderr).toBe(0);
    expect(run.warnings).toEqual(expected(text));
  }, 60_000);

  it("finds nothing when every path is one the outputSchemas declare", async () => {
    const run = await cli("--check", "--strict", write("right.stepfile.yaml", stepfile(`${tracker.origin}/mcp`, RIGHT)));
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain("0 errors, 0 warnings");
  }, 60_000);

  it("judges no MCP result with --offline, where nothing is listed", async () => {
    tracker.received.length = 0;
    const run = await cli("--check", "--strict", "--offline", write("offline.stepfile.yaml", stepfile(`${tracker.origin}/mcp`, WRONG)));
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain("0 errors, 0 warnings");
    expect(tracker.received).toEqual([]);
  }, 60_000);
});

describe("stepgate_validate with paths into an MCP tool's results", () => {
  const clients = validateClients<Finding>(() => tracker.host);

  it("gives what --check gives, from a host granted with --draft-host, and nothing for the right paths", async () => {
    const text = stepfile(`${tracker.origin}/mcp`, WRONG);
    expect((await clients.granted(text)).structuredContent.warnings).toEqual(expected(text));
    expect((await clients.granted(stepfile(`${tracker.origin}/mcp`, RIGHT))).structuredContent.warnings).toBeUndefined();
  }, 60_000);
});
