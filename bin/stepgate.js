#!/usr/bin/env node
// The published entry point: the compiled CLI. `npm ci` builds it (the
// `prepare` script), so a fresh clone runs `npx stepgate` at once.
import { main } from "../dist/src/cli.js";

process.exitCode = await main(process.argv.slice(2));
