// A remote source description through the built CLI: `--from-arazzo` fetches
// it the way stepgate_inspect_api does (through egress, public https by its
// name) and pins it by url + sha256 of the bytes it got. The "remote" host is
// a loopback HTTPS server under a test name (test/support/https-fixture.ts:
// the fake-dns preload and the test certificate), so nothing leaves 127.0.0.1.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { afterAll, expect, it } from "vitest";
import { sha256 } from "../../src/format/identity.js";
import { budget } from "../support/budget.js";
import { namedHostEnv, serveHttps, type HttpsFixture } from "../support/https-fixture.js";
import { REPO_ROOT, stepgateBin } from "../support/paths.js";
import { cliEnvironment } from "../support/stepgate.js";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "stepgate-arazzo-remote-"));
let api: HttpsFixture | undefined;
afterAll(async () => {
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

it(
  "fetches a remote OpenAPI source through egress and pins it by url and sha256",
  async () => {
    const bytes = readFileSync(resolve(REPO_ROOT, "test/arazzo/fixtures/store.openapi.json"));
    api = await serveHttps((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(bytes));
    const url = `https://api.example.test:${api.port}/openapi.json`;
    const document = join(dir, "remote.arazzo.yaml");
    writeFileSync(document, readFileSync(resolve(REPO_ROOT, "test/arazzo/fixtures/refusals.arazzo.yaml"), "utf8").replace("url: ./store.openapi.json", `url: ${url}`));
    const { stdout, stderr } = await run(process.execPath, [stepgateBin(), "--from-arazzo", document, "--workflow", "readOne", "--out", join(dir, "out"), "--allow-private-host", "api.example.test"], {
      env: { ...cliEnvironment(), ...namedHostEnv({ "api.example.test": ["127.0.0.1"] }) },
    });
    expect(stdout, stderr).toContain("wrote");
    const stepfile = parse(readFileSync(join(dir, "out", "readOne.stepfile.yaml"), "utf8")) as { tools: { store: { openapi: unknown } } };
    expect(stepfile.tools.store.openapi).toEqual({ server: "https://store.example.com", url, sha256: sha256(bytes) });
    expect(api.received).toEqual([{ method: "GET", path: "/openapi.json", host: `api.example.test:${api.port}` }]);
  },
  budget({ starts: 1 }),
);

it(
  "without --allow-private-host, egress refuses that name's loopback address and the workflow is refused naming --source",
  async () => {
    const document = join(dir, "remote.arazzo.yaml");
    const failed = await run(process.execPath, [stepgateBin(), "--from-arazzo", document, "--workflow", "readOne", "--out", join(dir, "refused")], {
      env: { ...cliEnvironment(), ...namedHostEnv({ "api.example.test": ["127.0.0.1"] }) },
    }).catch((error: { code: number; stderr: string }) => error);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toContain("refused: workflow readOne, step read: operationId getOrder: source store could not be fetched from https://api.example.test:");
    expect((failed as { stderr: string }).stderr).toContain("it resolves to 127.0.0.1, a loopback address");
    expect(api!.received).toHaveLength(1);
  },
  budget({ starts: 1 }),
);
