// Every request Stepgate sends carries `User-Agent: stepgate/<version>`,
// followed by ` (mailto:<email>)` when the operator passed --contact.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { REPO_ROOT } from "../support/paths.js";
import { cleanUp, json, oneStep, serve, startRun, structured } from "./cli-run.js";

afterEach(cleanUp);

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

async function userAgents(args: string[]): Promise<string[]> {
  const api = await serve((req, _body, res) => json(res, 200, req.url === "/verify" ? { pass: true } : { ok: true }));
  const stepfile = oneStep(
    "agent",
    {
      tools: {
        api: { openapi: { server: api.origin, document: { openapi: "3.1.0", info: { title: "x", version: "1" }, paths: { "/ping": { get: { operationId: "ping" } } } } }, exposes: ["ping"] },
        check: { verifier: { url: `${api.origin}/verify` } },
      },
    },
    { tools: ["ping"], gates: [{ id: "verified", http: { tool: "check" } }] },
  );
  const run = await startRun(stepfile, {}, { args });
  await run.call("ping");
  expect(structured(await run.submit({})).state).toBe("finished");
  // An operation's request and a verifier's both.
  expect(api.received.map((r) => r.path)).toEqual(["/ping", "/verify"]);
  return api.received.map((r) => r.headers["user-agent"]!);
}

it("is stepgate/<version> without --contact", async () => {
  expect(await userAgents([])).toEqual([`stepgate/${VERSION}`, `stepgate/${VERSION}`]);
});

it("adds (mailto:<email>) with --contact", async () => {
  expect(await userAgents(["--contact", "ops@example.org"])).toEqual(Array(2).fill(`stepgate/${VERSION} (mailto:ops@example.org)`));
});
