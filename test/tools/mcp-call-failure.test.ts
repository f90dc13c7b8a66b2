// What a thrown tools/call becomes, for the shapes the CLI tests cannot
// easily provoke: a Stepgate error the SDK wrapped in its own (through
// `cause`), an SDK HTTP error without a body, and a long body.
import { SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { EgressDenied, InvalidGrant, ToolCallFailed } from "../../src/errors.js";
import { callFailure } from "../../src/tools/mcp-tool.js";

describe("callFailure", () => {
  it("gives back a Stepgate error found through `cause` as itself, so it still ends the run", () => {
    const denied = new EgressDenied("elsewhere.example.com");
    expect(callFailure("lookup", new Error("SSE stream disconnected", { cause: new Error("fetch failed", { cause: denied }) }))).toBe(denied);
    const revoked = new InvalidGrant("suppliers");
    expect(callFailure("lookup", revoked)).toBe(revoked);
  });

  it("names egress's ToolCallFailed after the operation called, keeping its status, body and reason", () => {
    const failure = callFailure("lookup", new ToolCallFailed("suppliers", null, "", "network error: ECONNRESET"));
    expect(failure).toBeInstanceOf(ToolCallFailed);
    expect(failure.message).toBe("lookup failed: network error: ECONNRESET");
    expect(failure.details).toMatchObject({ operation: "lookup", status: null, reason: "network error: ECONNRESET" });
  });

  it("takes the status and body from the SDK's HTTP error, the body cut to 2000 characters", () => {
    const failure = callFailure("lookup", new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: ...", { status: 502, text: "x".repeat(5000) }));
    expect(failure).toBeInstanceOf(ToolCallFailed);
    expect((failure as ToolCallFailed).status).toBe(502);
    expect((failure as ToolCallFailed).body).toBe("x".repeat(2000));
  });

  it("says the attempts made after the status when the answer came after retries, and nothing of them after one", () => {
    const http = () => new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: busy", { status: 503, text: "busy" });
    expect(callFailure("lookup", http(), 5).message).toBe("lookup failed: HTTP 503, after 5 attempts: busy");
    expect(callFailure("lookup", http(), 1).message).toBe("lookup failed: HTTP 503: busy");
    expect(callFailure("lookup", http()).message).toBe("lookup failed: HTTP 503: busy");
  });

  it("falls back to the SDK's message when its HTTP error has no body, and to any error's message without a status", () => {
    const empty = callFailure("lookup", new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: ", { status: 500, text: "" }));
    expect(empty.details).toMatchObject({ operation: "lookup", status: 500, body: "Error POSTing to endpoint: " });
    const other = callFailure("lookup", new Error("Request timed out"));
    expect(other).toBeInstanceOf(ToolCallFailed);
    expect(other.message).toBe("lookup failed: no usable answer: Request timed out");
    expect(other.details).toMatchObject({ status: null, body: "Request timed out" });
  });
});
