// The server's session lines name client sessions only. 2026-07-28 clients
// open none (their requests share one internal session), so a server that
// only ever saw them logs no "session ... ended (shutdown)" at SIGTERM; a
// 2025-11-25 session's end is still logged.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, startCliServer } from "./fixtures/cli-server.js";
import { connectClient, httpTransportOf } from "./fixtures/harness.js";

const greet = join(repoRoot, "test/fixtures/greet.stepfile.yaml");

describe("session lines at shutdown", () => {
  it("logs none when only 2026-07-28 requests came in", async () => {
    const server = await startCliServer([greet]);
    const client = await connectClient(server.url, "modern");
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    await client.close();
    await server.stop();
    expect(server.child.exitCode).toBe(0);
    expect(server.stderr()).not.toMatch(/session \S+ ended/);
  }, 60_000);

  it("logs a 2025-11-25 session's end", async () => {
    const server = await startCliServer([greet]);
    const client = await connectClient(server.url);
    const id = httpTransportOf(client).sessionId!;
    await client.listTools();
    await server.stop();
    expect(server.stderr()).toContain(`session ${id} ended (shutdown)`);
  }, 60_000);
});
