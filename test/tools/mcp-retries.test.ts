// A remote MCP tool's call that is retried (a 429 in front of the server)
// leaves a `retry` record naming the step and the operation, as an OpenAPI
// call's retry does; retries during preflight belong to no step.
import { afterEach, expect, it } from "vitest";
import { startMcpFixture } from "../support/mcp-fixture.js";
import { cleanUp, mcpMethod, oneStep, proxyTo, startRun, structured, text } from "./cli-run.js";

afterEach(cleanUp);

it("records a retried MCP call against the step that made it", async () => {
  const mcp = await startMcpFixture({ token: "mcp-token", tools: [{ name: "lookup", inputSchema: { type: "object" }, text: "Acme: Leeds" }] });
  // Stands in front of the MCP server and answers the first request of each kind 429 once.
  const limited = new Set<string>();
  const proxy = await proxyTo(mcp.origin, (_req, body, res) => {
    const kind = mcpMethod(body) === "tools/call" ? "call" : mcpMethod(body) === "tools/list" ? "list" : "other";
    if ((kind === "call" || kind === "list") && !limited.has(kind)) {
      limited.add(kind);
      res.writeHead(429, { "retry-after": "0" }).end();
      return true;
    }
    return false;
  });
  const stepfile = oneStep(
    "mcp-retry",
    {
      credentials: { suppliers: { kind: "bearer", hosts: [proxy.host], description: "Looks up suppliers." } },
      tools: { suppliers: { mcp: { url: `${proxy.origin}/mcp` }, credential: "suppliers", exposes: ["lookup"] } },
    },
    { tools: ["lookup"] },
  );
  const run = await startRun(stepfile, {}, { env: { SUPPLIERS_API_KEY: "mcp-token" } });
  expect(structured(run.first).state).toBe("running");
  const reply = await run.call("lookup", { query: "Acme" });
  expect(text(reply)).toContain("Acme: Leeds");
  const { ledger } = await run.finish();
  await mcp.close();
  expect(ledger.filter((r) => r.type === "retry").map((r) => ({ step: r.step, operation: r.operation, status: r.status }))).toEqual([
    { step: null, operation: "suppliers", status: 429 },
    { step: "work", operation: "lookup", status: 429 },
  ]);
});
