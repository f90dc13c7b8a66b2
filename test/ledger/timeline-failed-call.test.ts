// A client's call that failed with ToolCallFailed has a tool_call record with
// `error` (and a status only when one came back): --show and the HTML page
// say the call failed and why, rather than showing a bare `200`.
import { describe, expect, it } from "vitest";
import { buildTimeline } from "../../src/ledger/timeline.js";
import { renderTimelineText } from "../../src/ledger/timeline-text.js";
import { renderTimelinePage } from "../../src/ledger/timeline-html.js";

const at = (s: number) => `2026-12-01T00:00:0${s}.000Z`;
const common = { run: "r1", stepfile: "hostile", prev: null };
const call = (seq: number, operation: string, status: number | null, error?: string) => ({
  ...common, seq, at: at(seq), type: "tool_call", step: "work", tool: "api", operation, host: "127.0.0.1:9", status, duration_ms: 40, credential: null,
  response_hash: error ? null : "sha256:00", response_length: error ? null : 2, shown_length: error ? null : 2, caller: "client", ...(error ? { error } : {}),
});
const ledger = [
  { ...common, seq: 0, at: at(0), type: "run_started", identity: "sha256:11", inputs_hash: "sha256:22" },
  { ...common, seq: 1, at: at(1), type: "step_started", step: "work", attempt: 1 },
  call(2, "zstd", 200, "ToolCallFailed"),
  call(3, "trickle", null, "ToolCallFailed"),
  call(4, "fine", 200),
].map((r) => JSON.stringify(r)).join("\n");

describe("a failed call in the timeline", () => {
  it("keeps its error type, shown with the status when one came", () => {
    const calls = buildTimeline(ledger).steps[0]!.attempts[0]!.calls;
    expect(calls.map((c) => c.error)).toEqual(["ToolCallFailed", "ToolCallFailed", null]);
    const text = renderTimelineText(buildTimeline(ledger), "open");
    expect(text).toContain("call zstd on 127.0.0.1:9 (tool api): ToolCallFailed (HTTP 200), ");
    expect(text).toContain("call trickle on 127.0.0.1:9 (tool api): ToolCallFailed, ");
    expect(text).toContain("call fine on 127.0.0.1:9 (tool api): 200, ");
  });

  it("marks it as an error on the page, with the same words", () => {
    const page = renderTimelinePage([{ file: "hostile.jsonl", timeline: buildTimeline(ledger), verdict: { status: "open", text: "open", pass: false } }]);
    expect(page).toContain("ToolCallFailed (HTTP 200)");
    expect(page.match(/class="call by-client error"/g)).toHaveLength(2);
  });
});
