// Writes schema/stepfile.schema.json from the loader's own structure
// definition, with hover text for every field added
// (src/format/structure-descriptions.ts), so the editor schema and the loader
// cannot drift (test/format/schema-file.test.ts fails when they differ). The
// descriptions are added here only: the loader's validator and the schema
// `stepgate_guide` serves stay without them.
import { writeFileSync } from "node:fs";
import { stepfileStructure } from "../src/format/structure.js";
import { describedStructure } from "../src/format/structure-descriptions.js";

writeFileSync(new URL("../schema/stepfile.schema.json", import.meta.url), `${JSON.stringify(describedStructure(stepfileStructure), null, 2)}\n`);
