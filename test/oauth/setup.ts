// What the OAuth tests share: an authorization server, an MCP server that
// trusts its access tokens and publishes RFC 9728 metadata naming it, and a
// stepfile whose oauth2 credential fixes the token endpoint.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMcpFixture, type McpFixture } from "../support/mcp-fixture.js";
import { startAuthServer, type AuthServer, type AuthServerOptions } from "./auth-server.js";

export interface OAuthWorld {
  as: AuthServer;
  mcp: McpFixture;
  dir: string;
  stepfile: string;
  ledgerDir: string;
  /** Every ledger line written so far, all runs. */
  ledger(): string;
  close(): Promise<void>;
}

export interface WorldOptions extends AuthServerOptions {
  /** token_url written into the stepfile (default: the server's real token endpoint). */
  tokenUrl?: (as: AuthServer) => string;
  /** Serve no protected resource metadata. */
  noResourceMetadata?: boolean;
}

export async function startWorld(options: WorldOptions = {}): Promise<OAuthWorld> {
  const as = await startAuthServer(options);
  const mcp = await startMcpFixture({
    token: (token) => as.accepts(token),
    tools: [{ name: "lookup", description: "Look up a supplier.", inputSchema: { type: "object", properties: { query: { type: "string" } } }, text: "Supplier Acme: based in Leeds" }],
    ...(options.noResourceMetadata ? {} : { authorizationServers: [as.issuer] }),
  });
  const { dir, stepfile, ledgerDir, ledger } = writeSuppliersStepfile({ mcpHost: mcp.host, mcpUrl: `${mcp.origin}/mcp`, scopes: ["tools"], tokenUrl: options.tokenUrl?.(as) ?? as.tokenEndpoint });
  return {
    as,
    mcp,
    dir,
    stepfile,
    ledgerDir,
    ledger,
    close: async () => {
      await Promise.all([as.close(), mcp.close()]);
    },
  };
}

/** The refresh form of credential `suppliers`, as the environment gives it. */
export function refreshEnv(grant: { clientId: string; refreshToken: string }, secret?: string): Record<string, string> {
  return { SUPPLIERS_REFRESH_TOKEN: grant.refreshToken, SUPPLIERS_CLIENT_ID: grant.clientId, ...(secret ? { SUPPLIERS_CLIENT_SECRET: secret } : {}) };
}

export interface SuppliersStepfile {
  dir: string;
  stepfile: string;
  ledgerDir: string;
  /** Every ledger line written so far, all runs. */
  ledger(): string;
}

/** A fresh folder with the `suppliers` stepfile: one MCP tool behind oauth2 credential `suppliers`, one agent step that looks Acme up. */
export function writeSuppliersStepfile(target: { mcpHost: string; mcpUrl: string; scopes: string[]; tokenUrl: string }): SuppliersStepfile {
  const dir = mkdtempSync(join(tmpdir(), "stepgate-oauth-"));
  const stepfile = join(dir, "suppliers.stepfile.json");
  writeFileSync(
    stepfile,
    JSON.stringify({
      stepgate: "1",
      id: "suppliers",
      inputs: { type: "object", properties: {} },
      credentials: {
        suppliers: { kind: "oauth2", hosts: [target.mcpHost], description: "Looks up suppliers.", scopes: target.scopes, token_url: target.tokenUrl },
      },
      tools: { directory: { mcp: { url: target.mcpUrl }, credential: "suppliers", exposes: ["lookup"] } },
      steps: [
        {
          id: "city",
          tools: ["lookup"],
          instructions: "Find where Acme is based.",
          produces: { type: "object", required: ["city"], properties: { city: { type: "string" } } },
          gates: [{ id: "named", message: "name a city", predicate: { "!!": [{ var: "output.city" }] } }],
        },
      ],
    }),
  );
  const ledgerDir = join(dir, "ledger");
  return {
    dir,
    stepfile,
    ledgerDir,
    ledger: () => {
      try {
        return readdirSync(ledgerDir)
          .map((f) => readFileSync(join(ledgerDir, f), "utf8"))
          .join("");
      } catch {
        return "";
      }
    },
  };
}
