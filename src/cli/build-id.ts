// Which build of the bundle this is. Running from src/ there is none; the
// bundle (scripts/build.ts) swaps this module for one naming the build, so
// files written beside the bundle by the same build (dist/catalog-index.json)
// are only trusted by the code they were written for.
export const BUILD_ID = undefined as string | undefined;
