// The Arazzo Specification's own example documents (documents written by
// others, test/arazzo/fixtures/spec/README.md) through the built CLI's
// `--from-arazzo` and `--check`: each workflow converts to a stepfile that
// loads with zero errors, or is refused naming the workflow, the step and
// the construct, and never with a stack trace. Nothing here reaches the
// network: a remote source is given a local copy with --source.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadStepfileText } from "../../src/loader/load.js";
import { budget } from "../support/budget.js";
import { cli } from "../support/cli-exec.js";
import { REPO_ROOT } from "../support/paths.js";

const SPEC = "test/arazzo/fixtures/spec";
const PETSTORE = resolve(REPO_ROOT, "node_modules", "@readme", "oas-examples", "3.0", "yaml", "petstore.yaml");
const out = mkdtempSync(join(tmpdir(), "stepgate-arazzo-spec-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Example {
  file: string;
  args?: string[];
  code: number;
  converted: string[];
  /** Each refusal: the workflow, the step and the construct it must name. */
  refused: [workflow: string, step: string, construct: string][];
}

const EXAMPLES: Example[] = [
  {
    file: "bnpl-arazzo.yaml",
    args: ["--source", `BnplApi=${SPEC}/bnpl-openapi.yaml`, "--server", "BnplApi=https://bnpl.example.com/bnpl/v1"],
    code: 1,
    converted: [],
    refused: [["ApplyForLoanAtCheckout", "checkLoanCanBeProvided", "onSuccess[1] (goto qualifyingProductsFound).criteria[1] (jsonpath \"$[?count(@.products) > 0]\")"]],
  },
  {
    file: "oauth.arazzo.yaml",
    code: 1,
    converted: [],
    refused: [
      ["refresh-token-flow", "do-the-auth-flow", "workflowId authorization-code-flow, its step get-access-token: requestBody (application/x-www-form-urlencoded)"],
      ["client-credentials-flow", "get-client-creds-token", "requestBody (application/x-www-form-urlencoded)"],
      ["authorization-code-flow", "get-access-token", "requestBody (application/x-www-form-urlencoded)"],
    ],
  },
  {
    file: "pet-coupons.arazzo.yaml",
    args: ["--server", "pet-coupons=https://petstore.example.com/v3"],
    code: 1,
    converted: ["place-order"],
    refused: [
      ["apply-coupon", "find-pet", "parameter pet_tags (in query)"],
      ["buy-available-pet", "place-order", 'successCriteria[0] ("$statusCode == 200"), the runtime expression $statusCode'],
    ],
  },
  {
    file: "LoginAndRetrievePets.arazzo.yaml",
    args: ["--source", `petStoreDescription=${PETSTORE}`, "--server", "petStoreDescription=https://petstore.example.com/v2"],
    code: 1,
    converted: [],
    refused: [["loginUserRetrievePet", "loginStep", "the runtime expression $response.header.X-Expires-After"]],
  },
  { file: "FAPI-PAR.arazzo.yaml", code: 1, converted: [], refused: [["OIDC-PAR-AuthzCode", "PARStep", "operationId $sourceDescriptions.auth-api.PAR"]] },
  { file: "ExtendedParametersExample.arazzo.yaml", code: 1, converted: [], refused: [["animal-workflow", "post-step", "operationId $sourceDescriptions.animals.postAnimal"]] },
  { file: "async-with-channel-path.arazzo.yaml", code: 1, converted: [], refused: [["basicWorkflow", "step1", "channelPath"]] },
];

describe.each(EXAMPLES.map((e) => [e.file, e] as const))("the specification's %s", (file, example) => {
  it(
    "converts each workflow to a stepfile that loads, or refuses it naming workflow, step and construct",
    async () => {
      const dir = join(out, file);
      const { code, stdout, stderr } = await cli("--from-arazzo", `${SPEC}/${file}`, "--out", dir, ...(example.args ?? []));
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(code, stderr).toBe(example.code);
      const refusals = stderr.split("\n").filter((l) => l.includes(": refused: "));
      expect(refusals).toHaveLength(example.refused.length);
      for (const [i, [workflow, step, construct]] of example.refused.entries()) {
        expect(refusals[i]).toContain(`refused: workflow ${workflow}, step ${step}: ${construct}: `);
        expect(refusals[i]).toContain("; to convert it, ");
      }
      const written = example.converted.length > 0 ? readdirSync(dir).sort() : [];
      expect(written).toEqual(example.converted.map((w) => `${w}.stepfile.yaml`).sort());
      for (const name of written) {
        const text = readFileSync(join(dir, name), "utf8");
        expect(text.split("\n")[0]).toMatch(/^# yaml-language-server: \$schema=.*schema\/stepfile\.schema\.json$/);
        expect(loadStepfileText(text, name).doc.stepgate).toBe("1");
        expect(stdout).toContain(`wrote ${join(dir, name)}`);
      }
    },
    budget({ starts: 1 }),
  );
});

describe("documents that are not Arazzo, and --check", () => {
  it("refuses an AsyncAPI document given as an Arazzo one, exit 2, no stack trace", async () => {
    const { code, stderr } = await cli("--from-arazzo", `${SPEC}/pet-asyncapi.arazzo.yaml`, "--out", join(out, "asyncapi"));
    expect(code).toBe(2);
    expect(stderr).toContain("this is not an Arazzo document: it has no top-level arazzo field");
    expect(stderr).not.toMatch(/\n\s+at /);
  }, budget({ starts: 1 }));

  it("--check reports each refusal at its step's line, and the converted workflow's stepfile as checked", async () => {
    const { code, stdout } = await cli("--check", `${SPEC}/pet-coupons.arazzo.yaml`, "--server", "pet-coupons=https://petstore.example.com/v3");
    expect(code).toBe(1);
    expect(stdout).toMatch(/pet-coupons\.arazzo\.yaml:22:9: error: workflows\[0\]\.steps\[0\]: refused: workflow apply-coupon, step find-pet: parameter pet_tags/);
    expect(stdout).toContain("2 errors");
  }, budget({ starts: 1 }));

  it("--workflow names one workflow; an unknown one is named with those there are", async () => {
    const one = await cli("--from-arazzo", `${SPEC}/pet-coupons.arazzo.yaml`, "--workflow", "place-order", "--out", join(out, "one"), "--server", "pet-coupons=https://petstore.example.com/v3");
    expect(one.code, one.stderr).toBe(0);
    expect(readdirSync(join(out, "one"))).toEqual(["place-order.stepfile.yaml"]);
    const unknown = await cli("--from-arazzo", `${SPEC}/pet-coupons.arazzo.yaml`, "--workflow", "adopt", "--out", join(out, "none"));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("has no workflow adopt (it has apply-coupon, buy-available-pet, place-order)");
  }, budget({ starts: 2 }));

  it("--from-arazzo without --out is a usage error", async () => {
    const { code, stderr } = await cli("--from-arazzo", `${SPEC}/pet-coupons.arazzo.yaml`);
    expect(code).toBe(2);
    expect(stderr).toContain("--from-arazzo needs --out <folder>");
  }, budget({ starts: 1 }));
});
