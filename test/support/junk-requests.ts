// Malformed HTTP requests against the built `stepgate --http`, as a hostile
// or broken client sends them, with the server's memory before, after and
// once the junk sessions are reaped. Shared by the hostile-clients test
// (issue 12: 2,000 such requests grew RSS from 105 to 355 MB before the
// session cap and reaping) and bench/junk-requests.bench.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { INITIALIZE, MCP_HEADERS, rawRequest, type RawRequest } from "../http/fixtures/harness.js";
import { repoRoot, startCliServer } from "../http/fixtures/cli-server.js";

export interface JunkResult {
  /** Requests per round. */
  requests: number;
  rounds: number;
  /** How many answers had each status, over every round. */
  statuses: Record<string, number>;
  /** Resident set (VmRSS), MiB, after start and one whole session. */
  rssStartMiB: number;
  /** Per round: VmRSS right after its junk, and once its junk sessions were reaped. */
  afterRounds: Array<{ rssAfterMiB: number; rssReapedMiB: number }>;
  /** Peak resident set (VmHWM) over the whole run, MiB. */
  peakRssMiB: number;
  /** Whether a real client could start a session and a run after the last reaping. */
  servesAfter: boolean;
}

/** The kinds of junk, taken in turn: half are `initialize` calls that are never followed (the sessions that used to pile up). */
const KINDS: Array<(port: number, i: number) => RawRequest> = [
  (port) => ({ port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) }),
  (port) => ({ port, headers: MCP_HEADERS, body: "{not json" }),
  (port) => ({ port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) }),
  (port, i) => ({ port, headers: { ...MCP_HEADERS, "mcp-session-id": `junk-${i}` }, body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/list" }) }),
  (port) => ({ port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) }),
  (port) => ({ port, headers: MCP_HEADERS, body: `${"[".repeat(100)}${"]".repeat(100)}` }),
  (port) => ({ port, headers: MCP_HEADERS, body: JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: "1999-01-01" } }) }),
  (port) => ({ port, headers: { "content-type": "text/plain", accept: "*/*" }, body: JSON.stringify(INITIALIZE) }),
  (port) => ({ port, headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) }),
  (port) => ({ port, method: "GET", headers: { accept: "text/event-stream" } }),
];

/**
 * Sends `requests` junk requests, `concurrency` at a time, to a fresh
 * server, waits `reapWaitMs` for the reaping, and does it again for each
 * round: a second round that grows the resident set as much as the first
 * would be a leak, where one that reuses the first round's memory is not.
 */
export async function junkRequests(requests: number, options: { rounds?: number; concurrency?: number; reapWaitMs?: number; env?: Record<string, string> } = {}): Promise<JunkResult> {
  const server = await startCliServer([join(repoRoot, "test/fixtures/greet.stepfile.yaml")], options.env ? { env: options.env } : {});
  const pid = server.child.pid!;
  const statuses: Record<string, number> = {};
  const rounds = options.rounds ?? 2;
  try {
    // One whole session first, so the start figure includes what serving loads.
    await wholeSession(server.url);
    const rssStartMiB = rss(pid, "VmRSS");
    const afterRounds: JunkResult["afterRounds"] = [];
    for (let round = 0; round < rounds; round++) {
      let next = 0;
      await Promise.all(
        Array.from({ length: options.concurrency ?? 50 }, async () => {
          for (let i = next++; i < requests; i = next++) {
            const answer = await rawRequest(KINDS[i % KINDS.length]!(server.port, round * requests + i));
            statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          }
        }),
      );
      const rssAfterMiB = rss(pid, "VmRSS");
      // Sessions whose client never followed its initialize go after 10 s.
      await new Promise((resolve) => setTimeout(resolve, options.reapWaitMs ?? 15_000));
      await wholeSession(server.url);
      afterRounds.push({ rssAfterMiB, rssReapedMiB: rss(pid, "VmRSS") });
    }
    const servesAfter = await wholeSession(server.url);
    return { requests, rounds, statuses, rssStartMiB, afterRounds, peakRssMiB: rss(pid, "VmHWM"), servesAfter };
  } finally {
    await server.stop();
  }
}

/** A real client: initialize, start the greet run, close. True when it got the run's first step. */
async function wholeSession(url: string): Promise<boolean> {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const client = new Client({ name: "junk-check", version: "0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const first = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    return (first.structuredContent as { state?: string } | undefined)?.state === "running";
  } finally {
    await client.close();
  }
}

function rss(pid: number, field: "VmRSS" | "VmHWM"): number {
  const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) / 1024;
}
