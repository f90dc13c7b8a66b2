import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, parseOptions, UsageError } from "../../src/cli/options.js";

describe("command-line options", () => {
  it("uses the seed's defaults", () => {
    expect(parseOptions(["a.yaml"]).limits).toEqual({
      callsPerStep: 100,
      toolResultChars: 20000,
      runIdleMs: 1800000,
      requestTimeoutMs: 60000,
      responseBytes: 10485760,
    });
    expect(DEFAULT_LIMITS.callsPerStep).toBe(100);
  });

  it("takes --client-auth-method with --auth --client-id, and --redirect-port and --auth-wait-ms with --auth only", () => {
    expect(parseOptions(["--auth", "a.yaml", "cred", "--client-id", "c-1", "--client-auth-method", "client_secret_post", "--redirect-port", "8765", "--auth-wait-ms", "2000"])).toMatchObject({
      clientAuthMethod: "client_secret_post",
      redirectPort: 8765,
      authWaitMs: 2000,
    });
    expect(() => parseOptions(["--auth", "a.yaml", "cred", "--client-auth-method", "client_secret_post"])).toThrow("--client-auth-method says how the --client-id client sends its secret; give --client-id too");
    expect(() => parseOptions(["--auth", "a.yaml", "cred", "--client-id", "c", "--client-auth-method", "private_key_jwt"])).toThrow('--client-auth-method "private_key_jwt": expected client_secret_basic or client_secret_post');
    expect(() => parseOptions(["--auth", "a.yaml", "cred", "--redirect-port", "70000"])).toThrow("--redirect-port 70000: expected a number from 1 to 65535");
    expect(() => parseOptions(["--redirect-port", "8765", "a.yaml"])).toThrow("--redirect-port is only for --auth");
    expect(() => parseOptions(["--auth-wait-ms", "10", "a.yaml"])).toThrow("--auth-wait-ms is only for --auth");
  });

  it("takes --client-id with --auth only", () => {
    expect(parseOptions(["--auth", "a.yaml", "cred", "--client-id", "c-1"])).toMatchObject({ mode: "auth", clientId: "c-1", positionals: ["a.yaml", "cred"] });
    expect(() => parseOptions(["--client-id", "c-1", "a.yaml"])).toThrow(UsageError);
    expect(() => parseOptions(["--auth", "a.yaml"])).toThrow(/--auth takes/);
  });

  it("parses every option of the Limits table", () => {
    const o = parseOptions([
      "--calls-per-step", "8", "--tool-result-chars", "10000", "--run-idle-ms", "5000", "--request-timeout-ms", "5000",
      "--response-bytes", "1000000", "--ledger-dir", "/tmp/l", "--contact", "ops@example.com",
      "--draft-credential", "github=api.github.com,uploads.github.com", "--draft-setting", "jira-site",
      "--record-cases", "/tmp/c", "--watch", "--allow-private-host", "Tracker.Internal.Example.", "--allow-private-host", "git.corp.example", "x.yaml",
    ]);
    expect(o).toMatchObject({
      mode: "serve",
      limits: { callsPerStep: 8, toolResultChars: 10000, runIdleMs: 5000, requestTimeoutMs: 5000, responseBytes: 1000000 },
      ledgerDir: "/tmp/l",
      contact: "ops@example.com",
      draftCredentials: [{ name: "github", hosts: ["api.github.com", "uploads.github.com"] }],
      draftSettings: ["jira-site"],
      recordCases: "/tmp/c",
      allowPrivateHosts: ["tracker.internal.example", "git.corp.example"],
      watch: true,
      positionals: ["x.yaml"],
    });
  });

  it.each([
    [["--calls-per-step", "0"], "--calls-per-step 0: expected a number from 1"],
    [["--calls-per-step", "ten"], "--calls-per-step \"ten\": expected a whole number"],
    [["--response-bytes", "-5"], "--response-bytes"],
    [["--http", "70000"], "--http 70000: expected a number from 0 to 65535"],
    [["--contact", "nobody"], "--contact \"nobody\": expected an email address"],
    [["--draft-credential", "github"], "--draft-credential \"github\": expected <name>=<host>"],
    [["--draft-setting", "Bad Name"], "--draft-setting"],
    [["--allow-private-host", "10.0.0.5"], "--allow-private-host \"10.0.0.5\": expected a host name"],
    [["--allow-private-host", "*.corp.example"], "no wildcard"],
    [["--allow-private-host", "tracker.internal.example:8443"], "no port"],
    [["--list", "--verify", "x"], "cannot be combined"],
    [["--verify"], "--verify needs at least one ledger file"],
    [["--frobnicate"], "Unknown option '--frobnicate'"],
    [["--keygen"], "--keygen takes one folder"],
    [["--keygen", "a", "b"], "--keygen takes one folder"],
    [["--show"], "--show needs at least one ledger file"],
    [["--key", "k.pem", "x.yaml"], "--key is only for --verify"],
    [["--json", "--show", "x.jsonl"], "--json is only for --verify"],
    [["--html", "x.html", "--verify", "x.jsonl"], "--html is only for --show"],
    [["--signing-key", "k", "--verify", "x.jsonl"], "--signing-key is only for serving"],
    [["--checkpoint-every", "0", "x.yaml"], "--checkpoint-every 0: expected a number from 1"],
    [["--show", "--verify", "x.jsonl"], "cannot be combined"],
  ])("refuses %j with one line", (argv, message) => {
    let error: unknown;
    try {
      parseOptions(argv);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain("\n");
  });
});
