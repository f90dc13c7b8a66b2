#!/usr/bin/env node
// The published entry point: the bundled CLI (dist/cli.js, made by
// `npm run build`). `npm ci` builds it (the `prepare` script), so a fresh
// clone runs `node bin/stepgate.js` at once.
import module from "node:module";

// Node 22.1+ keeps compiled bytecode of the bundle on disk between runs;
// older Node has no such cache and starts as before.
module.enableCompileCache?.();
// Stack traces name src/ lines only when someone asked for them: mapping
// costs time at every start.
if (process.env.STEPGATE_DEBUG) process.setSourceMapsEnabled(true);

const { main } = await import("../dist/cli.js");

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
