// The official JSON Schema of Arazzo 1.2.x documents: OAI/Arazzo-Specification,
// src/schemas/validation/schema.yaml on branch v1.2-dev, commit 1341541b19a7c843a6bd7f4bf1f27bb257788c11
// (Apache-2.0). At that commit it is the 1.1 schema (arazzo-1-1.ts) with its
// own $id, description and version pattern and nothing else, so only those
// three differ here.
import schema11 from "./arazzo-1-1.js";

export default {
  ...schema11,
  $id: "https://spec.openapis.org/arazzo/1.2/schema/WORK-IN-PROGRESS",
  description: "The description of Arazzo v1.2.x documents",
  properties: { ...schema11.properties, arazzo: { ...schema11.properties.arazzo, pattern: "^1\\.2\\.\\d+(-.+)?$" } },
} as const;
