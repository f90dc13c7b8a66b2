// Cases that are known to fail today, each with the reason. The suite marks
// them `it.fails`, so when one starts passing the suite fails and tells you
// to delete its line here. Keys are `<suite>/<file>`: `shared/` for the public
// suite in ../shared/conformance/, `own/` for this folder.
export const EXPECTED_FAILURES: readonly string[] = [];
