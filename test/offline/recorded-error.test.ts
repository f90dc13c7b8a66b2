// An error result written in a cases file as the client saw it is replayed
// with its status and body, also in the form an agent sees after retries
// (src/attempts.ts), so a case copied from that answer replays as
// the error it was, not as a text result.
import { describe, expect, it } from "vitest";
import { readErrorText } from "../../src/offline/recorded-error.js";

describe("an error result written as text", () => {
  it("gives the status and the parsed body, with or without the attempts a retried call names", () => {
    expect(readErrorText({ result: 'HTTP 404: {"error":"gone"}', is_error: true })).toEqual({ status: 404, result: { error: "gone" } });
    expect(readErrorText({ result: 'HTTP 500, after 5 attempts: {"error":"down"}', is_error: true })).toEqual({ status: 500, result: { error: "down" } });
    expect(readErrorText({ result: "HTTP 503, after 3 attempts", is_error: true })).toEqual({ status: 503, result: "" });
    expect(readErrorText({ result: "HTTP 502, after 2 attempts: bad gateway", is_error: true })).toEqual({ status: 502, result: "bad gateway" });
  });

  it("leaves any other text, a success and a recording with its status alone", () => {
    expect(readErrorText({ result: "HTTP 500 after 5 attempts: x", is_error: true })).toBeUndefined();
    expect(readErrorText({ result: "connection refused, after 5 attempts", is_error: true })).toBeUndefined();
    // A call that got no answer after its retries, as egress's ToolCallFailed says it: no status to replay.
    expect(readErrorText({ result: "getStatus failed: network error: UND_ERR_SOCKET: other side closed, after 5 attempts", is_error: true })).toBeUndefined();
    expect(readErrorText({ result: 'op failed: HTTP 429, after 2 attempts, the API asked to wait 61 s, more than 60 s: {"error":"slow down"}', is_error: true })).toBeUndefined();
    expect(readErrorText({ result: 'HTTP 404: {"error":"gone"}' })).toBeUndefined();
    expect(readErrorText({ result: 'HTTP 404: {"error":"gone"}', is_error: true, status: 404 })).toBeUndefined();
  });
});
