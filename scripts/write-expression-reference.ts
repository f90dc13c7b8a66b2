// Writes the expression reference into docs/stepfile.md between its markers,
// from src/authoring/expression-reference.ts, the same source stepgate_guide
// serves (test/authoring/expression-reference.test.ts fails when they differ).
import { readFileSync, writeFileSync } from "node:fs";
import { expressionReferenceMarkdown, REFERENCE_END, REFERENCE_START } from "../src/authoring/expression-reference.js";

const file = new URL("../docs/stepfile.md", import.meta.url);
const text = readFileSync(file, "utf8");
const start = text.indexOf(REFERENCE_START);
const end = text.indexOf(REFERENCE_END);
if (start < 0 || end < start) throw new Error("docs/stepfile.md has no expression-reference markers");
writeFileSync(file, `${text.slice(0, start + REFERENCE_START.length)}\n\n${expressionReferenceMarkdown()}\n${text.slice(end)}`);
