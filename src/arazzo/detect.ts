// Whether a path given where a stepfile is expected may be an Arazzo
// document: a look at its text for a top-level `arazzo` key, with nothing
// imported, so serving stepfiles does not load the converter (or its ajv
// schemas) unless an argument needs it. document.ts then decides for sure.

/** Top-level `arazzo:` in YAML (at the start of a line), or `"arazzo":` in a JSON text. */
export function mayBeArazzo(text: string): boolean {
  return /(^|\n)["']?arazzo["']?\s*:/.test(text) || (/^\s*\{/.test(text) && /"arazzo"\s*:/.test(text));
}
