// `npm run build`: bundles the CLI with esbuild into dist/ (one ESM entry,
// dist/cli.js, plus one chunk per lazily imported mode and what they
// share), so starting Stepgate reads a handful of files instead of
// resolving hundreds of modules. Source maps are written beside each file;
// STEPGATE_DEBUG turns them on for stack traces (bin/stepgate.js).
// Type checking is `npm run typecheck`; esbuild only strips types.
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import { build, type Plugin } from "esbuild";
import { CATALOG_INDEX_FILE } from "../src/cli/catalog-index.js";
import { catalogIndex } from "../src/cli/catalog-listed.js";
import { catalogEntries } from "../src/cli/catalog-entries.js";
import { cacheKey, SHIPPED_LOADS, shippedEntryText } from "../src/cli/load-cache.js";
import { loadStepfileText } from "../src/loader/load.js";
import { stepfileStructure } from "../src/format/structure.js";
import { createAjv } from "../src/jsonschema/ajv.js";
import { structureOptions } from "../src/loader/structure-check.js";

const root = resolve(import.meta.dirname, "..");
const outdir = join(root, "dist");

// Ajv's standalone entry is CommonJS whose default export TypeScript sees as a namespace.
const standalone = standaloneModule as unknown as typeof standaloneModule.default;

// src/loader/structure-check.ts compiles the stepfile structure schema when
// it is imported; the bundle gets the same validator as Ajv standalone code
// (same schema, same options), generated here.
const precompiledStructure: Plugin = {
  name: "precompiled-structure",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]loader[\\/]structure-check\.ts$/ }, () => {
      const ajv = new Ajv2020({ ...structureOptions, code: { source: true, esm: true } });
      return { contents: standalone(ajv, ajv.compile(stepfileStructure)), loader: "js", resolveDir: join(root, "src", "loader") };
    });
  },
};

// The bundle names its build (src/cli/build-id.ts), and so does the catalog
// index written beside it below: the bundle trusts only its own index.
const buildId = randomUUID();
const namedBuild: Plugin = {
  name: "named-build",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]cli[\\/]build-id\.ts$/ }, () => ({ contents: `export const BUILD_ID = ${JSON.stringify(buildId)};`, loader: "js" }));
  },
};

// src/jsonschema/meta-schema-check.ts compiles the 2020-12 meta-schema when
// it is imported; the bundle gets it as standalone code too (same options:
// createAjv, native patterns).
const precompiledMetaSchema: Plugin = {
  name: "precompiled-meta-schema",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]jsonschema[\\/]meta-schema-check\.ts$/ }, () => {
      const ajv = createAjv({ standaloneCode: true, nativePatterns: true });
      return { contents: standalone(ajv, ajv.getSchema(ajv.defaultMeta() as string)!), loader: "js", resolveDir: join(root, "src", "jsonschema") };
    });
  },
};

// The load cache's entries for the bundled catalog (src/cli/load-cache.ts),
// so that the first launch after a build serving catalog entries parses and
// checks none of them: each is what a full load of the entry gives. They are
// written before the bundle, whose code then holds each one's SHA-256
// (src/cli/shipped-loads.ts): an entry is trusted only as far as the code.
const shippedDigests: Record<string, string> = {};
rmSync(outdir, { recursive: true, force: true });
mkdirSync(join(root, SHIPPED_LOADS), { recursive: true });
for (const entry of catalogEntries(join(root, "awesome-stepfiles"))) {
  const text = readFileSync(entry.file, "utf8");
  let loaded;
  try {
    loaded = loadStepfileText(text, entry.name);
  } catch {
    continue;
  }
  const key = cacheKey(text, buildId);
  const written = shippedEntryText(key, loaded);
  if (written === undefined) continue;
  writeFileSync(join(root, SHIPPED_LOADS, `${key}.json`), written);
  shippedDigests[key] = createHash("sha256").update(written).digest("hex");
}
const shippedLoads: Plugin = {
  name: "shipped-loads",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]cli[\\/]shipped-loads\.ts$/ }, () => ({ contents: `export const SHIPPED_LOAD_DIGESTS = ${JSON.stringify(shippedDigests)};`, loader: "js" }));
  },
};

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
  // Whitespace, comments and syntax minified (names kept, for profiles and
  // stack traces; the source maps map back to src/): V8 reads fewer bytes at
  // every start. Measured on the built CLI, alternating with the unminified
  // build: one stepfile 145.6 -> 135.8 ms to the first tools/list, 28 -> 443
  // from 484 (bench/changes.md).
  minifyWhitespace: true,
  minifySyntax: true,
  chunkNames: "chunks/[name]-[hash]",
  // Dependencies shipped as CommonJS (ajv, yaml's helpers, ...) call
  // require() for Node's own modules; an ESM bundle has no require of its own.
  banner: { js: 'import { createRequire as __stepgateRequire } from "node:module";\nconst require = __stepgateRequire(import.meta.url);' },
  plugins: [precompiledStructure, precompiledMetaSchema, namedBuild, shippedLoads],
  logLevel: "warning",
});

// What `--list` shows of each catalog entry, so that it need not load them
// (src/cli/catalog-index.ts says when an entry is answered from here).
writeFileSync(join(outdir, CATALOG_INDEX_FILE), `${JSON.stringify(await catalogIndex(join(root, "awesome-stepfiles"), buildId))}\n`);

