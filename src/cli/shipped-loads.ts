// The SHA-256 of each load cache entry the build ships (dist/loads/), by the
// entry's key. Running from src/ there is none; the bundle (scripts/build.ts)
// swaps this module for one holding the build's digests, so a shipped entry
// is trusted only as far as the bundle's own code is (src/cli/load-cache.ts).
export const SHIPPED_LOAD_DIGESTS: Readonly<Record<string, string>> = {};
