// Issue 12 through the built CLI: an API that answers gzip or br (asked or
// not) reaches the client, the gates and the ledger as the bytes it meant.
// The OpenAPI document, the operation and the verifier all compress here.
import { createHash } from "node:crypto";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterEach, expect, it } from "vitest";
import { cleanUp, oneStep, serve, startRun, structured, text } from "./cli-run.js";

afterEach(cleanUp);

/** The digest of the decoded bytes: what pins, and what the ledger records. */
const digest = (body: string) => `sha256:${createHash("sha256").update(body).digest("hex")}`;

const document = { openapi: "3.1.0", info: { title: "x", version: "1" }, paths: { "/item": { get: { operationId: "getItem" } } } };

it("decodes the document, the operation's answer and the verifier's, and hashes the decoded body", async () => {
  const item = JSON.stringify({ key: "K-1", summary: "compressed answer" });
  const api = await serve((req, _body, res) => {
    const body = req.url === "/openapi.json" ? JSON.stringify(document) : req.url === "/verify" ? JSON.stringify({ pass: true }) : item;
    const coding = req.url === "/item" ? "br" : "gzip";
    res.writeHead(200, { "content-type": "application/json", "content-encoding": coding }).end(coding === "br" ? brotliCompressSync(body) : gzipSync(body));
  });
  const stepfile = oneStep(
    "compressed",
    { tools: { api: { openapi: { server: api.origin, url: `${api.origin}/openapi.json`, sha256: digest(JSON.stringify(document)) }, exposes: ["getItem"] }, check: { verifier: { url: `${api.origin}/verify` } } } },
    {
      tools: ["getItem"],
      produces: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
      gates: [
        { id: "from-api", message: "key must come from the API", predicate: { "==": [{ var: "output.key" }, { var: "calls.0.result.key" }] } },
        { id: "verified", http: { tool: "check" } },
      ],
    },
  );
  const run = await startRun(stepfile, {});
  expect(structured(run.first).state).toBe("running");
  const called = await run.call("getItem");
  expect(called.isError).toBeFalsy();
  expect(text(called)).toContain("compressed answer");
  expect(structured(await run.submit({ key: "K-1" })).state).toBe("finished");
  const { ledger } = await run.finish();
  const call = ledger.find((r) => r.type === "tool_call");
  expect(call).toMatchObject({ response_hash: digest(item), response_length: Buffer.byteLength(item) });
  expect(api.received.every((r) => r.headers["accept-encoding"] === "gzip, deflate, br")).toBe(true);
});

it("stops a compressed answer that inflates past --response-bytes with ResponseTooLarge", async () => {
  const bomb = gzipSync(Buffer.from(JSON.stringify({ pad: "x".repeat(2_000_000) })));
  const api = await serve((_req, _body, res) => res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(bomb));
  const stepfile = oneStep("bomb", { tools: { api: { openapi: { server: api.origin, document }, exposes: ["getItem"] } } }, { tools: ["getItem"] });
  const run = await startRun(stepfile, {}, { args: ["--response-bytes", "100000"] });
  expect(bomb.length).toBeLessThan(100_000);
  const called = await run.call("getItem");
  expect(text(called)).toMatch(/^ResponseTooLarge/);
  expect(structured(called).state).toBe("failed");
  const { ledger } = await run.finish();
  expect(ledger.at(-1)).toMatchObject({ type: "run_failed", error: "ResponseTooLarge" });
});
