// A criterion's `type` given as a Criterion Expression Type Object, the form
// the specification writes (versions/1.0.1.md, "Criterion Expression Type
// Example") and the published 1.0 schema refuses (OAI/Arazzo-Specification
// issue #336; the correction is src/arazzo/schema-corrections.ts): it
// converts, and its version is one the specification lists or the
// criterion is refused, naming where.
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { convertDocument } from "../../src/arazzo/convert.js";
import { readArazzo } from "../../src/arazzo/document.js";
import { refusalLine } from "../../src/arazzo/refusals.js";
import { StepfileInvalid } from "../../src/errors.js";
import { REPO_ROOT } from "../support/paths.js";

const FIXTURES = resolve(REPO_ROOT, "test", "arazzo", "fixtures");

/** A document of one workflow whose one step reads a pet and has this criterion (YAML lines, indented under successCriteria). */
function documentWith(criterion: string, arazzo = "1.0.1"): string {
  return `arazzo: ${arazzo}
info: { title: Criterion types, version: 1.0.0 }
sourceDescriptions:
  - { name: store, url: ./store.openapi.json, type: openapi }
workflows:
  - workflowId: readPet
    steps:
      - stepId: read
        operationId: getPet
        parameters:
          - { name: petId, in: path, value: 1 }
        successCriteria:
${criterion}
`;
}

async function convert(text: string) {
  return convertDocument(readArazzo(text, "criterion.arazzo.yaml"), { documentPath: join(FIXTURES, "criterion.arazzo.yaml") });
}

function schemaIssues(text: string): { path: string; message: string }[] {
  try {
    readArazzo(text, "criterion.arazzo.yaml");
  } catch (error) {
    if (error instanceof StepfileInvalid) return error.issues;
    throw error;
  }
  return [];
}

const GOESSNER = `          - context: $response.body
            condition: $[?(@.status == 'available')]
            type:
              type: jsonpath
              version: draft-goessner-dispatch-jsonpath-00`;

describe("a Criterion Expression Type Object", () => {
  it("passes the corrected 1.0 schema and converts a draft-goessner JSONPath filter", async () => {
    expect(schemaIssues(documentWith(GOESSNER))).toEqual([]);
    const c = await convert(documentWith(GOESSNER));
    expect(c.refused).toEqual([]);
    const [step] = c.converted[0]!.stepfile.steps as { gates: { predicate: unknown }[] }[];
    expect(step!.gates.map((g) => g.predicate)).toEqual([{ "==": [{ lower: { var: "calls.0.result.status" } }, "available"] }]);
  });

  it("is still refused by the schema beside the criterion's fields, where the published 1.0 schema wanted it", () => {
    const sibling = `          - context: $response.body
            condition: $[?@.status == 'available']
            type: jsonpath
            version: draft-goessner-dispatch-jsonpath-00`;
    expect(schemaIssues(documentWith(sibling))).toEqual([expect.objectContaining({ path: "workflows[0].steps[0].successCriteria[0]", message: expect.stringContaining("(version)") as unknown })]);
  });

  it("names a version the 1.0 schema does not list, at its path", () => {
    const text = documentWith(GOESSNER.replace("draft-goessner-dispatch-jsonpath-00", "draft-goessner-dot-notation-0"));
    expect(schemaIssues(text)).toEqual([expect.objectContaining({ path: "workflows[0].steps[0].successCriteria[0].type.version", message: expect.stringContaining("Arazzo JSON Schema") as unknown })]);
  });

  it("refuses an XPath version the specification lists as XPath, not as a schema error", async () => {
    const xpath = `          - context: $response.body
            condition: /pet/status
            type: { type: xpath, version: xpath-30 }`;
    const c = await convert(documentWith(xpath));
    expect(c.refused.map(refusalLine)).toEqual([expect.stringMatching(/^workflow readPet, step read: successCriteria\[0\] \(xpath "\/pet\/status"\): xpath criteria have no stepfile expression/)]);
  });

  it("refuses, naming the criterion and the versions there are, a version no schema checked (a minor version with no published schema)", async () => {
    const c = await convert(documentWith(GOESSNER.replace("draft-goessner-dispatch-jsonpath-00", "draft-goessner-dot-notation-0"), "1.9.0"));
    expect(c.refused.map(refusalLine)).toEqual([
      'workflow readPet, step read: successCriteria[0].type.version: "draft-goessner-dot-notation-0" is not a jsonpath version Arazzo defines (rfc9535, draft-goessner-dispatch-jsonpath-00); to convert it, name one of those versions, or write type: jsonpath for its default',
    ]);
  });
});
