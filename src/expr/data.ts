// What an expression reads and what a compiled one is: their own file, so
// the modules index.ts re-exports (templates, gate diagnoses) name them
// without importing index.ts, and the folder has no import circle
// (`npx madge --circular --extensions ts src/expr`).
export type Data = Record<string, unknown>;
export type Compiled = (data: Data) => unknown;
