// `npm run build`: bundles the CLI with esbuild into dist/ (one ESM entry,
// dist/cli.js, plus one chunk per lazily imported mode and what they
// share), so starting Stepgate reads a handful of files instead of
// resolving hundreds of modules. Source maps are written beside each file;
// STEPGATE_DEBUG turns them on for stack traces (bin/stepgate.js).
// Type checking is `npm run typecheck`; esbuild only strips types.
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";

const root = resolve(import.meta.dirname, "..");
const outdir = join(root, "dist");

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { cli: "src/cli.ts" },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  sourcemap: true,
  chunkNames: "chunks/[name]-[hash]",
  // Dependencies shipped as CommonJS (ajv, yaml's helpers, ...) call
  // require() for Node's own modules; an ESM bundle has no require of its own.
  banner: { js: 'import { createRequire as __stepgateRequire } from "node:module";\nconst require = __stepgateRequire(import.meta.url);' },
  logLevel: "warning",
});
