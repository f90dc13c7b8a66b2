import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileSinks } from "../../src/ledger/sinks.js";

describe("file sinks", () => {
  it("write one file per run, named <stepfile>-<run>.jsonl, one line per record", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "stepgate-sinks-")), "ledger");
    const sink = fileSinks(dir)("demo", "r1");
    sink.write('{"seq":0}');
    sink.write('{"seq":1}');
    expect(readFileSync(join(dir, "demo-r1.jsonl"), "utf8")).toBe('{"seq":0}\n{"seq":1}\n');
  });

  it("make the folder again when it was removed during a run, rather than lose the record", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "stepgate-sinks-")), "ledger");
    const sink = fileSinks(dir)("demo", "r2");
    sink.write('{"seq":0}');
    rmSync(dir, { recursive: true });
    sink.write('{"seq":1}');
    expect(existsSync(join(dir, "demo-r2.jsonl"))).toBe(true);
    expect(readFileSync(join(dir, "demo-r2.jsonl"), "utf8")).toBe('{"seq":1}\n');
  });
});
