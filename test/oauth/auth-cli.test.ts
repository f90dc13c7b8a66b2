// `stepgate --auth` through the built CLI, with the test playing the person:
// it reads the printed URL, opens it (the authorization server approves at
// once and redirects), and follows the redirect to the CLI's loopback
// listener. The printed variables must then work in a real run.
import { spawn } from "node:child_process";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { stepgateBin } from "../support/paths.js";
import { spawnStepgate } from "../support/stepgate.js";
import { startWorld, type OAuthWorld } from "./setup.js";

let world: OAuthWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

interface AuthProcess {
  /** Resolves with the first stdout line: the authorization URL. */
  url: Promise<string>;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function runAuth(w: OAuthWorld, extra: string[] = []): AuthProcess {
  const child = spawn(process.execPath, [stepgateBin(), "--auth", w.stepfile, "suppliers", "--request-timeout-ms", "5000", ...extra], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "" } });
  let stdout = "";
  let stderr = "";
  let gotUrl!: (url: string) => void;
  let noUrl!: (error: Error) => void;
  const url = new Promise<string>((resolve, reject) => {
    gotUrl = resolve;
    noUrl = reject;
  });
  url.catch(() => undefined);
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    const first = stdout.split("\n")[0];
    if (stdout.includes("\n") && first) gotUrl(first);
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => {
      // A run that ends before printing a URL fails the test at once, with what it said.
      noUrl(new Error(`stepgate --auth exited ${code} without a URL: ${stderr}`));
      resolve({ code, stdout, stderr });
    }),
  );
  return { url, done };
}

/** The person: open the URL, let the server redirect, follow it to the CLI's listener. */
async function approve(url: string, tamper?: (redirect: URL) => void): Promise<{ status: number; redirect: URL }> {
  const atServer = await fetch(url, { redirect: "manual" });
  expect(atServer.status).toBe(302);
  const redirect = new URL(atServer.headers.get("location")!);
  tamper?.(redirect);
  const atCli = await fetch(redirect);
  await atCli.text();
  return { status: atCli.status, redirect };
}

function parseVars(stdout: string): Record<string, string> {
  return Object.fromEntries(stdout.split("\n").slice(1).filter((l) => l.includes("=")).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
}

describe("stepgate --auth", () => {
  it("registers, authorizes with PKCE over a loopback redirect, and prints variables that work in a run", async () => {
    world = await startWorld();
    const auth = runAuth(world);
    const url = new URL(await auth.url);
    expect(url.origin + url.pathname).toBe(`${world.as.origin}/authorize`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("scope")).toBe("tools");
    expect(url.searchParams.get("resource")).toBe(`${world.mcp.origin}/mcp`);
    expect(url.searchParams.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const { status } = await approve(url.href);
    expect(status).toBe(200);
    const result = await auth.done;
    expect(result.code).toBe(0);
    const vars = parseVars(result.stdout);
    expect(Object.keys(vars).sort()).toEqual(["SUPPLIERS_CLIENT_ID", "SUPPLIERS_REFRESH_TOKEN"]);
    expect(world.as.tokenRequests.map((r) => [r.grant, r.outcome])).toEqual([["authorization_code", "ok"]]);
    // Secrets go to stdout only, for the person to copy; never to stderr.
    for (const secret of world.as.secrets()) expect(result.stderr).not.toContain(secret);

    const stepgate = await spawnStepgate(["--request-timeout-ms", "5000", world.stepfile], vars);
    try {
      const started = (await stepgate.client.callTool({ name: "suppliers", arguments: {} })) as CallToolResult;
      expect((started.structuredContent as { state?: string }).state).toBe("running");
      expect(world.as.tokenRequests.at(-1)).toMatchObject({ grant: "refresh_token", refreshToken: vars.SUPPLIERS_REFRESH_TOKEN, outcome: "ok" });
    } finally {
      await stepgate.close();
    }
  });

  it("prints the client secret when the server registered a confidential client", async () => {
    world = await startWorld({ confidential: true });
    const auth = runAuth(world);
    await approve(await auth.url);
    const result = await auth.done;
    expect(result.code).toBe(0);
    const vars = parseVars(result.stdout);
    expect(vars.SUPPLIERS_CLIENT_SECRET).toMatch(/^secret-/);
    expect(result.stderr).not.toContain(vars.SUPPLIERS_CLIENT_SECRET);
    // The code exchange authenticated with the secret.
    expect(world.as.tokenRequests).toEqual([expect.objectContaining({ grant: "authorization_code", outcome: "ok" })]);
  });

  it("uses --client-id when the server offers no registration", async () => {
    world = await startWorld({ registration: false });
    world.as.addClient("pre-registered");
    const auth = runAuth(world, ["--client-id", "pre-registered"]);
    await approve(await auth.url);
    const result = await auth.done;
    expect(result.code).toBe(0);
    expect(parseVars(result.stdout).SUPPLIERS_CLIENT_ID).toBe("pre-registered");
  });

  it("exits 1 with one line when the server offers no registration and no --client-id is given", async () => {
    world = await startWorld({ registration: false });
    const result = await runAuth(world).done;
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^AuthorizationFailed: .*--client-id/);
  });

  it("refuses a redirect whose iss is another server's (RFC 9207) and exchanges no code", async () => {
    world = await startWorld({ redirectIss: "http://127.0.0.1:9" });
    const auth = runAuth(world);
    await approve(await auth.url);
    const result = await auth.done;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/AuthorizationFailed: .*iss/);
    expect(world.as.tokenRequests).toEqual([]);
    expect(parseVars(result.stdout)).toEqual({});
  });

  it("refuses a redirect with another state", async () => {
    world = await startWorld();
    const auth = runAuth(world);
    await approve(await auth.url, (redirect) => redirect.searchParams.set("state", "forged"));
    const result = await auth.done;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/AuthorizationFailed: .*state/);
    expect(world.as.tokenRequests).toEqual([]);
  });

  it("refuses before any browser step when the advertised token endpoint is not token_url", async () => {
    world = await startWorld({ advertisedTokenEndpoint: "http://127.0.0.1:9/token" });
    const result = await runAuth(world).done;
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^AuthorizationFailed: .*http:\/\/127\.0\.0\.1:9\/token/);
    expect(world.as.received.map((r) => r.path)).toEqual(["/.well-known/oauth-authorization-server"]);
  });

  it("refuses a credential that is not oauth2 or not in the stepfile", async () => {
    world = await startWorld();
    const child = spawn(process.execPath, [stepgateBin(), "--auth", world.stepfile, "nope"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^AuthorizationFailed: authorization failed: suppliers declares no credential nope\n$/);
  });
});
