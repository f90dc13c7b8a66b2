// The structure check every stepfile goes through first: stepfileStructure
// compiled by Ajv. It is Stepgate's own schema (test/format/schema-file.test.ts
// checks it against the meta-schema), so compiling skips that check.
// The bundle (scripts/build.ts) swaps this module for the same validator
// generated at build time with Ajv's standalone code from the same options,
// so a starting CLI does not spend its first load compiling it.
import { Ajv2020, type Options } from "ajv/dist/2020.js";
import { stepfileStructure } from "../format/structure.js";

export const structureOptions: Options = { allErrors: true, strict: true, allowUnionTypes: true, validateSchema: false };

const checkStructure = new Ajv2020(structureOptions).compile(stepfileStructure);
export default checkStructure;
