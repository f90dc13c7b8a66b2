// The preflight check for an MCP tool whose credential has a token_url: the
// token endpoint the server's authorization server advertises must be the
// one the stepfile fixed. Otherwise the server could point Stepgate, or the
// person authorizing with --auth, at a token endpoint of its choosing.
import type * as oauth from "oauth4webapi";
import { PreflightFailed } from "../errors.js";
import type { EgressPolicy } from "../egress/index.js";
import { readAuthorizationMetadata, tokenEndpointMismatch } from "./discover.js";

/**
 * Throws AuthorizationFailed when the metadata cannot be read, and
 * PreflightFailed at item `tool <id>` when it disagrees: the tool names the
 * server that advertised the other endpoint, which the credential alone
 * would not when it serves several tools. Returns the authorization
 * server's metadata, whose issuer refreshes then check responses against.
 */
export async function checkTokenEndpoint(tool: string, mcpUrl: string, credential: string, tokenUrl: string, policy: EgressPolicy): Promise<oauth.AuthorizationServer> {
  const metadata = await readAuthorizationMetadata(mcpUrl, tokenUrl, policy);
  const problem = tokenEndpointMismatch(metadata, tokenUrl);
  if (problem) throw new PreflightFailed(`tool ${tool}`, `${mcpUrl}, for credential ${credential}: ${problem}`);
  return metadata.server!;
}
