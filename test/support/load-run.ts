// A load run over HTTP, shared by the load test (200 sessions) and
// bench/load.bench.ts (1,000 runs): the built `stepgate --http` with
// --ledger-dir, `sessions` SDK clients at once, each running the stepfile
// below `runsPerSession` times start to finish. Each run makes real calls
// through egress to an API on loopback: a mechanical step's call by
// Stepgate, then the client's own call, whose answer an evidence gate checks
// (one failing submit, then two passing ones). Every ledger is then checked
// with `stepgate --verify`.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Agent, fetch as undiciFetch } from "undici";
import { startCliServer, stepgateBin } from "../http/fixtures/cli-server.js";
import { listenLoopback } from "./listen.js";

const run = promisify(execFile);

/**
 * run_started; lookup: step_started, tool_call, computed, step_passed;
 * hello: step_started, tool_call, submit, gate (fail), submit, gate (pass),
 * step_passed; sign: step_started, submit, gate, step_passed; run_finished.
 */
export const RECORDS_PER_RUN = 17;

/**
 * The clients' fetch, opening a connection per request. Two hundred clients
 * in one busy process can take longer than the server's keep-alive timeout
 * (Node's 5 s) to send their next request, and a request sent on a socket the
 * server is closing that moment is reset: a race of the client's pool, which
 * would make this test fail for a reason outside the server.
 */
const noKeepAlive = new Agent({ pipelining: 0 });
const freshConnections = ((input: string | URL | Request, init?: RequestInit) => undiciFetch(input as never, { ...(init as object), dispatcher: noKeepAlive } as never)) as unknown as typeof fetch;

/** The stepfile every load run runs, against the people API at `origin`. */
function loadStepfile(origin: string): Record<string, unknown> {
  const person = { type: "object", properties: { name: { type: "string" } } };
  const document = {
    openapi: "3.1.0",
    info: { title: "people", version: "1" },
    paths: {
      "/people/{name}": {
        get: {
          operationId: "getPerson",
          parameters: [{ name: "name", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "the person", content: { "application/json": { schema: person } } } },
        },
      },
    },
  };
  return {
    stepgate: "1",
    id: "load",
    description: "Look someone up, greet them by their full name, then sign off.",
    inputs: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
    tools: { people: { openapi: { server: origin, document }, exposes: ["getPerson"] } },
    steps: [
      {
        id: "lookup",
        do: { calls: [{ id: "who", operation: "getPerson", arguments: { name: { var: "inputs.name" } } }], output: { known: { var: "responses.who.name" } } },
        produces: { type: "object", required: ["known"] },
      },
      {
        id: "hello",
        instructions: "Look {{inputs.name}} up with getPerson and greet them by their full name.",
        tools: ["getPerson"],
        produces: { type: "object", required: ["greeting"], properties: { greeting: { type: "string" } } },
        retries: 1,
        gates: [{ id: "full-name", message: "the greeting must hold the full name getPerson gave", predicate: { in: [{ var: "calls.0.result.name" }, { var: "output.greeting" }] } }],
      },
      {
        id: "sign",
        instructions: "Sign off.",
        produces: { type: "object", required: ["signature"], properties: { signature: { type: "string" } } },
        gates: [{ id: "signed", schema: { properties: { signature: { minLength: 1 } } } }],
      },
    ],
  };
}

export interface LoadResult {
  runs: number;
  finished: number;
  ledgers: number;
  verified: number;
  /** Ledger records of every type but `retry`: RECORDS_PER_RUN per run when none is lost. */
  records: number;
  /** `retry` records: a call to the loopback API retried after a network error (the seed's rule for a GET), which a loaded machine may provoke. */
  retries: number;
  p50Ms: number;
  p99Ms: number;
  wallMs: number;
  /** The server's peak resident set (Linux VmHWM), MiB; null elsewhere. */
  peakRssMiB: number | null;
}

export async function loadRun(sessions: number, runsPerSession: number): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), "stepgate-load-"));
  const people = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? "").replace(/^\/people\//, ""));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ name: `${name} Lovelace` }));
  });
  // Longer than egress's pool keeps an idle socket, so the pool lets go first
  // and a busy machine does not turn keep-alive races into retried calls.
  people.keepAliveTimeout = 60_000;
  const api = await listenLoopback(people);
  const stepfile = join(dir, "load.stepfile.json");
  writeFileSync(stepfile, JSON.stringify(loadStepfile(api.origin)));
  const ledgers = join(dir, "ledgers");
  const server = await startCliServer(["--ledger-dir", ledgers, stepfile], { timeoutMs: 60_000 }).catch(async (error: unknown) => {
    await api.close();
    throw error;
  });
  const durations: number[] = [];
  let finished = 0;
  const started = performance.now();
  try {
    const clients = Promise.all(
      Array.from({ length: sessions }, async () => {
        const client = new Client({ name: "load", version: "0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: freshConnections }));
        for (let i = 0; i < runsPerSession; i++) {
          const t = performance.now();
          const first = await client.callTool({ name: "load", arguments: { name: "Ada" } }, { timeout: 120_000 });
          const id = (first.structuredContent as { run: string }).run;
          await client.callTool({ name: "stepgate_call", arguments: { run: id, operation: "getPerson", arguments: { name: "Ada" } } }, { timeout: 120_000 });
          let last = first;
          for (const output of [{ greeting: "Hello, Ada" }, { greeting: "Hello, Ada Lovelace" }, { signature: "S" }]) {
            last = await client.callTool({ name: "stepgate_submit", arguments: { run: id, output } }, { timeout: 120_000 });
          }
          if ((last.structuredContent as { state?: string }).state === "finished") finished++;
          durations.push(performance.now() - t);
        }
        await client.close();
      }),
    );
    // A failed session says why with what the server logged (a session it ended, say).
    await clients.catch((error: unknown) => {
      const ended = server.stderr().split("\n").filter((line) => / ended \(/.test(line) && !line.includes("(deleted)"));
      throw new Error(`${error instanceof Error ? error.message : String(error)}; the server ended ${ended.length} session(s) early${ended.length ? `, e.g. ${ended.slice(0, 3).join(" | ")}` : ""}`, { cause: error });
    });
    const wallMs = performance.now() - started;
    const peakRssMiB = peakRss(server.child.pid);
    await server.stop();
    const files = readdirSync(ledgers).filter((f) => f.endsWith(".jsonl"));
    let verified = 0;
    // --verify takes many files at once; batches keep the command line short.
    for (let i = 0; i < files.length; i += 200) {
      // Every run finished, so every file must be closed and intact (unsigned: this server has no key).
      const { stdout } = await run(process.execPath, [stepgateBin, "--verify", "--json", ...files.slice(i, i + 200).map((f) => join(ledgers, f))], { maxBuffer: 64 * 1024 * 1024 }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
      verified += (JSON.parse(stdout) as { files: Array<{ verdict: { status: string } }> }).files.filter((f) => f.verdict.status === "unsigned").length;
    }
    const types = files.flatMap((f) => readFileSync(join(ledgers, f), "utf8").trimEnd().split("\n").map((line) => (JSON.parse(line) as { type: string }).type));
    const retries = types.filter((type) => type === "retry").length;
    const records = types.length - retries;
    durations.sort((a, b) => a - b);
    const at = (q: number) => durations[Math.min(durations.length - 1, Math.floor(q * durations.length))]!;
    return { runs: durations.length, finished, ledgers: files.length, verified, records, retries, p50Ms: at(0.5), p99Ms: at(0.99), wallMs, peakRssMiB };
  } finally {
    await server.stop();
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function peakRss(pid: number | undefined): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}
