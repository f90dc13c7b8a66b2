// The command line: parse options, then hand over to the mode asked for
// (serve over stdio or HTTP, list the catalog, verify or show ledgers, make
// a signing key, run offline cases, check stepfiles, authorize). Returns the exit code.
//
// Each mode is imported on demand: `--version` must not pay for the MCP SDK,
// Ajv and undici that serving needs. A new mode is one more case of the form
// `case "x": return (await import("./cli/x.js")).run(options);`.
import { HELP } from "./cli/help.js";
import { parseOptions, UsageError, type Options } from "./cli/options.js";
import { packageVersion } from "./cli/package-root.js";
import { discoverResultJson } from "./mcp/server-info.js";
import { readEarly } from "./stdio/early.js";
import { telemetryWanted } from "./telemetry/wanted.js";

export async function main(argv: string[]): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`stepgate: ${error.message} (see stepgate --help)\n`);
      return 2;
    }
    throw error;
  }
  switch (options.mode) {
    case "help":
      process.stdout.write(HELP);
      return 0;
    case "version":
      process.stdout.write(`stepgate ${packageVersion()}\n`);
      return 0;
    case "verify":
      return (await import("./cli/verify.js")).verifyMode(options, out, err);
    case "keygen":
      return (await import("./cli/keygen.js")).keygen(options.positionals[0]!, (line) => out(`${line}\n`), err);
    case "show":
      return (await import("./cli/show.js")).showMode(options, out, err, process.stdout.isTTY === true && !process.env.NO_COLOR);
    case "list": {
      const { listCatalog } = await import("./cli/list.js");
      return listCatalog(options.positionals, (text) => void process.stdout.write(text), (line) => void process.stderr.write(`${line}\n`));
    }
    case "test":
      return (await import("./cli/test-mode.js")).testMode(options);
    case "check":
      return (await import("./cli/check.js")).checkMode(options, out, err);
    case "auth":
      return (await import("./cli/auth.js")).runAuth(options, {
        env: process.env,
        version: packageVersion(),
        out: (line) => void process.stdout.write(`${line}\n`),
        err: (line) => void process.stderr.write(`${line}\n`),
      });
    case "from-arazzo":
      return (await import("./cli/from-arazzo.js")).fromArazzo(options, (line) => out(`${line}\n`), err);
    case "serve": {
      // Over stdio, the client's first messages are read from here on and
      // answered before the MCP SDK loads (src/stdio/early.ts): a server/discover
      // at once, while the serving code below still loads (a 2026-07-28 client
      // sends it to a probe process it stops as soon as it has the answer), the
      // rest once the stepfiles are loaded. Not with telemetry on, where every
      // request must reach a server to get its span.
      const early = options.http === undefined && !telemetryWanted(process.env) ? readEarly(process.stdin, process.stdout, discoverResultJson(packageVersion())) : undefined;
      return (await import("./cli/serve.js")).run(options, early);
    }
  }
}

const out = (text: string) => void process.stdout.write(text);
const err = (line: string) => void process.stderr.write(`${line}\n`);
