// Issue 12, hostile answers through the built CLI: an API on loopback that
// misbehaves in every way a network can. Each call ends in its documented
// error within --request-timeout-ms (plus the CLI's own start), the run
// state the seed gives (ToolCallFailed: the run goes on; ResponseTooLarge:
// the run ends, with run_failed in the ledger), and each ToolCallFailed a
// tool_call record with its error type.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, expect, it } from "vitest";
import { serveHttps } from "../support/https-fixture.js";
import { cleanUp, oneStep, serve, startRun, structured, text } from "./cli-run.js";

afterEach(cleanUp);

const TIMEOUT_MS = 1_500;
const timers: NodeJS.Timeout[] = [];
afterEach(() => timers.splice(0).forEach(clearInterval));

const HOSTILE: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  // The status line and one header, then nothing: the headers never finish.
  "/headers-never-finish": (_req, res) => void res.socket?.write("HTTP/1.1 200 OK\r\nx-partial: 1\r\n"),
  "/trickle": (_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
    timers.push(setInterval(() => res.write("x"), 1_000));
  },
  "/reset-mid-body": (_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
    res.write('{"partial": "');
    setTimeout(() => res.socket?.resetAndDestroy(), 50);
  },
  "/short-body": (_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
    res.write('{"only": "part"}');
    setTimeout(() => res.socket?.end(), 50);
  },
  // A coding Stepgate cannot decode, and a body that is not what its coding says.
  "/zstd": (_req, res) => res.writeHead(200, { "content-type": "application/json", "content-encoding": "zstd" }).end("(zstd bytes)"),
  "/broken-gzip": (_req, res) => res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end("this is not gzip at all"),
  "/not-json": (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("<html>surprise</html>"),
  "/loop": (_req, res) => res.writeHead(307, { location: "/loop" }).end(),
  "/hop": (req, res) => {
    const n = Number(new URL(req.url ?? "/", "http://x").searchParams.get("n") ?? "0");
    res.writeHead(307, { location: n < 50 ? `/hop?n=${n + 1}` : "/landed" }).end();
  },
  "/huge": (_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": String(2 * 1024 ** 3) });
    res.write("{");
  },
};

const operations = Object.keys(HOSTILE).map((path) => path.slice(1).replaceAll("-", "_"));

function hostileStepfile(server: string) {
  const paths = Object.fromEntries(Object.keys(HOSTILE).map((path) => [path, { post: { operationId: path.slice(1).replaceAll("-", "_") } }]));
  return oneStep(
    "hostile",
    { tools: { api: { openapi: { server, document: { openapi: "3.1.0", info: { title: "hostile", version: "1" }, paths } }, exposes: operations } } },
    { tools: operations },
  );
}

it("gives each hostile answer its documented error, in time, and the run its state", { timeout: 180_000 }, async () => {
  const api = await serve((req, _body, res) => HOSTILE[new URL(req.url ?? "/", "http://x").pathname]!(req, res));
  const run = await startRun(hostileStepfile(api.origin), {}, { args: ["--request-timeout-ms", String(TIMEOUT_MS), "--response-bytes", "1000000"] });
  const expected: Array<[string, RegExp]> = [
    ["headers_never_finish", new RegExp(`^headers_never_finish failed: no complete response within ${TIMEOUT_MS} ms`)],
    ["trickle", new RegExp(`^trickle failed: no complete response within ${TIMEOUT_MS} ms`)],
    ["reset_mid_body", /^reset_mid_body failed: network error: /],
    ["short_body", /^short_body failed: network error: /],
    ["loop", /^loop failed: more than 10 redirects/],
    ["hop", /^hop failed: more than 10 redirects/],
    ["zstd", /^zstd failed: HTTP 200, the response uses content-encoding "zstd", which Stepgate cannot decode \(it accepts gzip, deflate, br\)$/],
    ["broken_gzip", /^broken_gzip failed: HTTP 200, the response's gzip encoding is broken \(.+\)$/],
  ];
  for (const [operation, error] of expected) {
    const started = Date.now();
    const reply = await run.call(operation);
    // A generous bound for a loaded machine: the deadline, not a hang.
    expect(Date.now() - started, operation).toBeLessThan(TIMEOUT_MS + 10_000);
    expect(reply.isError, operation).toBe(true);
    expect(text(reply), operation).toMatch(error);
    expect(structured(reply).state, operation).toBe("running");
  }
  // A JSON content type over a non-JSON body is shown as the text it is.
  const notJson = await run.call("not_json");
  expect(notJson.isError).toBeFalsy();
  expect(text(notJson)).toBe("<html>surprise</html>");
  // 2 GB announced: refused before a byte of it is read, and the run ends.
  const huge = await run.call("huge");
  expect(text(huge)).toMatch(/^ResponseTooLarge: the response of huge is larger than --response-bytes \(1000000 bytes\)/);
  expect(structured(huge).state).toBe("failed");
  const { ledger } = await run.finish();
  // Every failed call that left the run going has its record: its error type, no response hash, and a status only when one came.
  const calls = ledger.filter((r) => r.type === "tool_call");
  expect(calls.map((r) => r.operation)).toEqual([...expected.map(([operation]) => operation), "not_json"]);
  for (const record of calls.filter((r) => r.operation !== "not_json")) {
    const status = record.operation === "zstd" || record.operation === "broken_gzip" ? 200 : null;
    expect(record, String(record.operation)).toMatchObject({ step: "work", tool: "api", host: api.host, status, response_hash: null, response_length: null, shown_length: null, caller: "client", error: "ToolCallFailed" });
  }
  expect(calls.find((r) => r.operation === "not_json")).toMatchObject({ status: 200, response_length: "<html>surprise</html>".length });
  expect(calls.find((r) => r.operation === "not_json")).not.toHaveProperty("error");
  // The call whose error ended the run is recorded by run_failed, right after the last call's record.
  expect(ledger.slice(-2).map((r) => r.type)).toEqual(["tool_call", "run_failed"]);
  expect(ledger.at(-1)).toMatchObject({ type: "run_failed", error: "ResponseTooLarge" });
});

it("refuses a self-signed certificate once, clearly, naming NODE_EXTRA_CA_CERTS", { timeout: 120_000 }, async () => {
  const api = await serveHttps((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
  try {
    const stepfile = oneStep("selfsigned", { tools: { api: { openapi: { server: api.origin, document: { openapi: "3.1.0", info: { title: "x", version: "1" }, paths: { "/item": { get: { operationId: "getItem" } } } } }, exposes: ["getItem"] } } }, { tools: ["getItem"] });
    const run = await startRun(stepfile, {});
    const reply = await run.call("getItem");
    expect(text(reply)).toMatch(
      new RegExp(`^getItem failed: the TLS certificate of ${api.host.replace(/[.[\]]/g, "\\$&")} is not trusted \\((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN): .+\\); for an API with a private CA, start Stepgate with NODE_EXTRA_CA_CERTS=<ca.pem>`),
    );
    expect(structured(reply).state).toBe("running");
    // Not retried: a GET with a network error would be sent four times.
    const { ledger } = await run.finish();
    expect(ledger.filter((r) => r.type === "retry")).toEqual([]);
    expect(ledger.filter((r) => r.type === "tool_call")).toMatchObject([{ operation: "getItem", host: api.host, status: null, response_hash: null, error: "ToolCallFailed" }]);
    expect(api.received).toEqual([]);
  } finally {
    await api.close();
  }
});
