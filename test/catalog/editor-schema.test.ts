// Editors check catalog entries as you type: every YAML entry names the
// stepfile JSON Schema on its first line (the modeline the Red Hat YAML
// language server reads, in VS Code and in Zed), by a path
// relative to the entry, which resolves both in a clone and in an installed
// package (node_modules/stepgate ships schema/ beside awesome-stepfiles/).
// Every entry, YAML or JSON, is valid against the written schema.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { catalogEntries } from "../../src/cli/catalog.js";
import { REPO_ROOT } from "../support/paths.js";

const SCHEMA = join(REPO_ROOT, "schema", "stepfile.schema.json");
const MODELINE = /^# yaml-language-server: \$schema=(\S+)\n/;
const entries = catalogEntries(join(REPO_ROOT, "awesome-stepfiles"));
const validate = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(JSON.parse(readFileSync(SCHEMA, "utf8")) as object);

describe("the catalog in an editor", () => {
  it.each(entries.filter((e) => e.file.endsWith(".yaml")).map((e) => [e.name, e.file] as const))("%s names the stepfile schema on its first line", (_name, file) => {
    const modeline = MODELINE.exec(readFileSync(file, "utf8"));
    expect(modeline, "first line: # yaml-language-server: $schema=../../../schema/stepfile.schema.json").not.toBeNull();
    expect(resolve(dirname(file), modeline![1]!)).toBe(SCHEMA);
  });

  it("ships the schema beside the catalog, so the relative path holds in an installed package", () => {
    const files = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { files: string[] }).files;
    expect(files).toEqual(expect.arrayContaining(["schema/", "awesome-stepfiles/"]));
    expect(existsSync(SCHEMA)).toBe(true);
  });

  it.each(entries.map((e) => [e.name, e.file] as const))("%s is valid against schema/stepfile.schema.json", (_name, file) => {
    const text = readFileSync(file, "utf8");
    const doc: unknown = file.endsWith(".json") ? JSON.parse(text) : parse(text);
    validate(doc);
    expect(validate.errors ?? []).toEqual([]);
  });

  it("would report an unknown field, as an editor shows it", () => {
    const file = entries.find((e) => e.name === "release-notes")!.file;
    const doc = parse(readFileSync(file, "utf8")) as { steps: Array<Record<string, unknown>> };
    doc.steps[0]!.retry = 2;
    expect(validate(doc)).toBe(false);
    expect(validate.errors).toContainEqual(expect.objectContaining({ keyword: "additionalProperties", params: { additionalProperty: "retry" } }));
  });
});
