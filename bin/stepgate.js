#!/usr/bin/env node
// The published entry point: the compiled CLI. `npm ci` builds it (the
// `prepare` script), so a fresh clone runs `node bin/stepgate.js` at once.
import { main } from "../dist/src/cli.js";

// A reader that goes away (`stepgate --list | head`, a client that quit)
// is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// Anything else unexpected: one line, no stack, unless STEPGATE_DEBUG asks for it.
function internalError(error) {
  const detail = process.env.STEPGATE_DEBUG ? (error?.stack ?? String(error)) : (error?.message ?? String(error));
  process.stderr.write(`stepgate: internal error: ${detail}\n`);
  process.exit(70);
}
process.on("uncaughtException", internalError);
process.on("unhandledRejection", internalError);

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, internalError);
