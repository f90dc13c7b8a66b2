// Writes schema/stepfile.schema.json from the loader's own structure
// definition, so the editor schema and the loader cannot drift
// (test/format/schema-file.test.ts fails when they differ).
import { writeFileSync } from "node:fs";
import { stepfileStructure } from "../src/format/structure.js";

writeFileSync(new URL("../schema/stepfile.schema.json", import.meta.url), `${JSON.stringify(stepfileStructure, null, 2)}\n`);
