// Issue 12, input caps through the built CLI: a stepfile or cases file over
// --max-stepfile-bytes is refused in one line before parsing; quotes of
// input in error messages are capped; a lone surrogate is an ordinary
// StepfileInvalid with its file, line and path.
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../support/cli-exec.js";

const root = resolve(import.meta.dirname, "../..");
const greet = join(root, "test/fixtures/greet.stepfile.yaml");

const dir = mkdtempSync(join(tmpdir(), "stepgate-caps-"));
function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe("--max-stepfile-bytes", () => {
  it("refuses a stepfile over the default 4 MiB in one line, before parsing", async () => {
    // 5 MiB of one-key-per-line YAML: parsing it would take many seconds and hundreds of MB.
    const big = file("big.stepfile.yaml", `stepgate: "1"\nid: big\n${Array.from({ length: 400_000 }, (_, i) => `k${i}: ${i}`).join("\n")}\n`);
    const { code, stderr } = await cli("--test", big);
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^StepfileInvalid: .*big\.stepfile\.yaml is \d+ bytes, more than --max-stepfile-bytes \(4194304\); it was not parsed\n$/);
  });

  it("takes a smaller bound, for serving too", async () => {
    const { code, stderr } = await cli("--max-stepfile-bytes", "100", greet);
    expect(code).toBe(1);
    expect(stderr).toMatch(/greet\.stepfile\.yaml is \d+ bytes, more than --max-stepfile-bytes \(100\); it was not parsed/);
  });

  it("bounds cases files the same way", async () => {
    const cases = file("greet.cases.yaml", `cases:\n${"  # padding\n".repeat(2000)}`);
    const { code, stderr } = await cli("--test", greet, cases, "--max-stepfile-bytes", "4000");
    expect(code).toBe(1);
    // The stepfile's own load warnings may come first; the cases file gets exactly one line.
    const refusal = stderr.trim().split("\n").filter((line) => !line.startsWith("stepgate: warning: "));
    expect(refusal.join("\n")).toMatch(/^CasesInvalid: .*greet\.cases\.yaml is \d+ bytes, more than --max-stepfile-bytes \(4000\); it was not parsed$/);
  });

  it("refuses a bad value with exit 2", async () => {
    expect((await cli("--max-stepfile-bytes", "0", greet)).code).toBe(2);
  });
});

describe("quotes of input in messages", () => {
  it("caps every quote of a binary junk file at 200 characters", async () => {
    const junk = file("junk.stepfile.yaml", randomBytes(3 * 1024 * 1024));
    const { code, stderr } = await cli("--test", junk);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^StepfileInvalid: /);
    const lines = stderr.split("\n");
    // At most LISTED_ISSUES issues, each line bounded: a few KB, not megabytes.
    expect(lines.length).toBeLessThanOrEqual(103);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(1_300);
    for (const quoted of stderr.match(/"(?:[^"\\\n]|\\.)*"/g) ?? []) expect(quoted.length).toBeLessThanOrEqual(206);
  });

  it("caps a huge key quoted in a path", async () => {
    const key = "k".repeat(100_000);
    const huge = file("huge.stepfile.json", JSON.stringify({ stepgate: "1", id: "huge", inputs: { type: "object" }, steps: [], [key]: 1 }));
    const { stderr } = await cli("--test", huge);
    expect(stderr).toContain(`${"k".repeat(150)}`);
    expect(stderr).not.toContain("k".repeat(250));
    expect(stderr).toContain("...");
  });
});

describe("a lone surrogate", () => {
  it.each([
    ["yaml", `stepgate: "1"\nid: lone\ndescription: "bad \\ud800 here"\ninputs: { type: object }\nsteps:\n  - id: one\n    instructions: do it\n    produces: { type: object }\n    gates: [{ id: g, schema: { type: object } }]\n`, 3],
    ["json", `{\n"stepgate": "1",\n"id": "lone",\n"description": "bad \\udc00",\n"inputs": {"type": "object"},\n"steps": [{"id": "one", "instructions": "do it", "produces": {"type": "object"}, "gates": [{"id": "g", "schema": {"type": "object"}}]}]\n}\n`, 4],
  ])("is StepfileInvalid with file, line and path (%s)", async (ext, text, line) => {
    const path = file(`lone.stepfile.${ext}`, text);
    const { code, stderr } = await cli("--test", path);
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^StepfileInvalid: .*lone\\.stepfile\\.${ext} is invalid:\\n  .*lone\\.stepfile\\.${ext}:${line}:\\d+ description: holds a lone surrogate \\(\\\\ud[8c]00\\) at character \\d+`));
    expect(stderr).not.toContain("internal error");
  });
});
