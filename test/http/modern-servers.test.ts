// Over 2026-07-28 the SDK asks the factory for a server per request, all for
// the one shared session. Each must leave nothing behind once it answered:
// before this was fixed every request added a --watch listener (and
// overwrote the factory's server map entry) that only the end of the shared
// session removed, so memory grew with every request.
import { afterEach, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../../src/http/server.js";
import { createServerFactory } from "../../src/mcp/server.js";
import { ServedStepfiles } from "../../src/mcp/served.js";
import { RunRegistry } from "../../src/engine/registry.js";
import { chainedLedgers } from "../../src/ledger/chain.js";
import { memorySinks } from "../../src/ledger/sinks.js";
import { DEFAULT_LIMITS } from "../../src/limits.js";
import { connectClient } from "./fixtures/harness.js";

let server: HttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("2026-07-28 per-request servers", () => {
  it("remove their --watch listener once answered, however many requests come", { timeout: 60_000 }, async () => {
    const stepfiles = new ServedStepfiles([]);
    const registry = new RunRegistry({ limits: DEFAULT_LIMITS, ledger: chainedLedgers(memorySinks()), newRunId: () => "r", openToolbox: () => Promise.reject(new Error("no toolbox")) }, 60_000);
    const factory = createServerFactory({ stepfiles, registry, version: "0.0.0", approvalTimeoutMs: 60_000, authoring: { catalog: () => [], grants: { credentials: [], settings: [] }, env: {}, requests: { userAgent: "t", timeoutMs: 1000, maxBytes: 1000 } } });
    server = await startHttpServer({ port: 0, factory, idleMs: 60_000 });
    const client = await connectClient(server.url, "modern");
    for (let i = 0; i < 40; i++) expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await Promise.all(Array.from({ length: 20 }, () => client.listTools()));
    // A per-request server closes just after its answer is sent.
    for (let i = 0; i < 100 && stepfiles.listenerCount > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stepfiles.listenerCount).toBe(0);
    await client.close();
  });
});
