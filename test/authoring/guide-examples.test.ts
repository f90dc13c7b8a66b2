// stepgate_guide and stepgate_examples, in process.
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { guide, guideText } from "../../src/authoring/guide.js";
import { exampleText, listExamples, readExample } from "../../src/authoring/examples.js";
import { catalogEntries } from "../../src/cli/catalog.js";
import { describedStructure } from "../../src/format/structure-descriptions.js";

describe("stepgate_guide", () => {
  it("holds the schema file's content, the workflow in order and the format reference", () => {
    const g = guide();
    // The file adds hover text for editors (src/format/structure-descriptions.ts); the guide serves the schema without it.
    expect(describedStructure(g.schema)).toEqual(JSON.parse(readFileSync(new URL("../../schema/stepfile.schema.json", import.meta.url), "utf8")));
    expect(g.workflow.map((s) => s.split(":")[0])).toEqual(["outline", "inspect_api", "write", "validate", "try", "test", "save"]);
    for (const word of ["produces", "gates", "mechanical", "exposes", "--draft-credential", "schema_sha256"]) expect(g.format).toContain(word);
    expect(guideText(g)).toContain('"$id": "https://stepgate.dev/schema/stepfile-1.json"');
  });
});

describe("stepgate_examples", () => {
  it("lists the bundled catalog with what each entry needs", async () => {
    const list = await listExamples(catalogEntries());
    expect(list).toContainEqual({ name: "release-notes", category: "writing", title: "Release notes from a list of changes", needs: [] });
  });

  it("names the variables an entry needs, and marks an entry that does not load", async () => {
    const root = mkdtempSync(join(tmpdir(), "stepgate-catalog-"));
    const add = (name: string, text: string) => {
      mkdirSync(join(root, "ops", name), { recursive: true });
      writeFileSync(join(root, "ops", name, `${name}.stepfile.yaml`), text);
    };
    add(
      "keyed",
      'stepgate: "1"\nid: keyed\ntitle: Keyed\ninputs: { type: object }\nsettings: { jira-site: { description: s } }\ncredentials: { tracker-token: { kind: bearer, hosts: ["{jira-site}.atlassian.net"], description: t } }\ntools: { jira: { openapi: { server: "https://{jira-site}.atlassian.net", document: { openapi: 3.1.0, paths: { /x: { get: { operationId: getX, responses: { "200": { description: ok } } } } } } }, credential: tracker-token, exposes: [getX] } }\nsteps: [{ id: a, instructions: x, produces: { type: object }, gates: [{ id: g, schema: {} }] }]\n',
    );
    add("broken", "stepgate: nope\n");
    const list = await listExamples(catalogEntries(root));
    expect(list.find((e) => e.name === "keyed")).toEqual({ name: "keyed", category: "ops", title: "Keyed", needs: ["TRACKER_TOKEN_API_KEY", "JIRA_SITE"] });
    expect(list.find((e) => e.name === "broken")?.invalid).toContain("invalid");
    expect(await readExample(catalogEntries(root), "keyed")).toMatchObject({ name: "keyed", readme: null });
  });

  it("reads one entry's stepfile and README, and nothing for an unknown name", async () => {
    const entry = await readExample(catalogEntries(), "release-notes");
    expect(entry?.stepfile).toContain("id: release-notes");
    expect(entry?.readme).toContain("# release-notes");
    expect(await readExample(catalogEntries(), "nope")).toBeUndefined();
  });

  it("serves an entry written as JSON in a json fence", async () => {
    const entry = await readExample(catalogEntries(), "github-release");
    expect(entry?.format).toBe("json");
    expect(exampleText(entry!)).toContain("```json\n{");
  });

  it("serves every catalog entry, none invalid", async () => {
    const list = await listExamples(catalogEntries());
    expect(list.filter((e) => e.invalid !== undefined)).toEqual([]);
    expect(list.map((e) => e.name).sort()).toEqual(catalogEntries().map((e) => e.name).sort());
  });
});
