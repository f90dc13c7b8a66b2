// stepgate_guide and stepgate_examples, in process.
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AUTHORING_TOOLS } from "../../src/authoring/definitions.js";
import { GUIDE_SECTIONS, guide, guideSection, guideText } from "../../src/authoring/guide.js";
import { loadStepfileText } from "../../src/loader/load.js";
import { examplesListText, exampleText, listExamples, readExample } from "../../src/authoring/examples.js";
import { catalogEntries, catalogRoot } from "../../src/cli/catalog.js";
import { readIndexedFacts } from "../../src/cli/catalog-index.js";
import { catalogIndex } from "../../src/cli/catalog-listed.js";

describe("stepgate_guide", () => {
  it("holds the workflow in order and the format reference, and the schema file's structure as a section", () => {
    const g = guide();
    const { schema } = guideSection("schema").data as { schema: Record<string, unknown> };
    const written = JSON.parse(readFileSync(new URL("../../schema/stepfile.schema.json", import.meta.url), "utf8")) as Record<string, unknown>;
    // The written file adds hover text (description) to the loader's structure; every other keyword is the same.
    expect(withoutDescriptions(schema)).toEqual(withoutDescriptions(written));
    expect(g.workflow.map((s) => s.split(":")[0])).toEqual(["outline", "inspect_api", "write", "validate", "try", "test", "mutate", "save"]);
    for (const word of ["produces", "gates", "mechanical", "exposes", "--draft-credential", "schema_sha256", "approve"]) expect(g.format).toContain(word);
    expect(guideSection("schema").text).toContain('"title":"Stepgate stepfile, format 1"');
  });

  it("is at most 12 KB, text and data together, and offers the sections the tool's schema lists", () => {
    const g = guide();
    expect(Buffer.byteLength(guideText(g)) + Buffer.byteLength(JSON.stringify({ workflow: g.workflow, sections: g.sections }))).toBeLessThanOrEqual(12 * 1024);
    const listed = AUTHORING_TOOLS.find((t) => t.name === "stepgate_guide")!.inputSchema as unknown as { properties: { section: { enum: string[] } } };
    expect(listed.properties.section.enum).toEqual(Object.keys(GUIDE_SECTIONS));
    for (const name of Object.keys(GUIDE_SECTIONS)) expect(guideText(g)).toContain(`section: "${name}"`);
  });

  it("ends with a complete small stepfile that loads with no warning: a mechanical step, an agent step with evidence gates, an approve gate", () => {
    const g = guide();
    expect(guideText(g).endsWith(`\n\`\`\`yaml\n${g.example.trimEnd()}\n\`\`\``)).toBe(true);
    const loaded = loadStepfileText(g.example, "guide example");
    expect(loaded.warnings).toEqual([]);
    const [shelf, pick] = loaded.doc.steps;
    expect(shelf!.do?.calls?.length).toBeGreaterThan(0);
    expect(pick!.instructions).toBeDefined();
    expect(pick!.tools).toEqual(["getBook"]);
    // Evidence: the gates read what the step's calls returned (through let's results).
    expect(JSON.stringify(pick!.let)).toContain('"results":["getBook"');
    expect(JSON.stringify(pick!.gates)).toContain("let.read");
    expect(pick!.gates!.some((gate) => gate.approve !== undefined)).toBe(true);
  });
});

describe("stepgate_examples", () => {
  it("lists the bundled catalog with what each entry needs", async () => {
    const list = await listExamples(catalogEntries());
    expect(list).toContainEqual({ name: "release-notes", category: "writing", title: "Release notes from a list of changes", needs: [], approval: false });
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
    expect(list.find((e) => e.name === "keyed")).toEqual({ name: "keyed", category: "ops", title: "Keyed", needs: ["TRACKER_TOKEN_API_KEY", "JIRA_SITE"], approval: false });
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

  it("takes each entry from what the build's index knows, loading only the entries it does not know", async () => {
    const entries = catalogEntries();
    const known = async (entry: { name: string }) => (entry.name === "release-notes" ? { title: "From the index", needs: ["FROM_INDEX"], approval: true } : undefined);
    const list = await listExamples(entries, known);
    expect(list.find((e) => e.name === "release-notes")).toEqual({ name: "release-notes", category: "writing", title: "From the index", needs: ["FROM_INDEX"], approval: true });
    // The others were loaded, and say what loading them says.
    expect(list.filter((e) => e.name !== "release-notes")).toEqual((await listExamples(entries)).filter((e) => e.name !== "release-notes"));
  });

  it("gets from the catalog index the build writes the same title and needs loading gives", async () => {
    const root = catalogRoot();
    const index = await catalogIndex(root, "test");
    const loaded = await listExamples(catalogEntries(root));
    for (const entry of catalogEntries(root)) {
      const facts = await readIndexedFacts(index, root, entry);
      const summary = loaded.find((e) => e.name === entry.name)!;
      expect({ title: facts!.title ?? facts!.description ?? "", needs: facts!.environment, approval: facts!.words.includes("approve") }, entry.name).toEqual({ title: summary.title, needs: summary.needs, approval: summary.approval });
    }
  });

  it("says an entry needs a person to approve, in the words --list uses", async () => {
    const list = await listExamples(catalogEntries());
    const approving = list.filter((e) => e.approval);
    expect(approving.length).toBeGreaterThan(0);
    const text = examplesListText(list);
    for (const e of approving) expect(text).toContain(`- ${e.name} (${e.category}): ${e.title}\n  needs: ${[...e.needs, "a person to approve (the client must support elicitation)"].join(", ")}`);
  });

  it("serves every catalog entry, none invalid", async () => {
    const list = await listExamples(catalogEntries());
    expect(list.filter((e) => e.invalid !== undefined)).toEqual([]);
    expect(list.map((e) => e.name).sort()).toEqual(catalogEntries().map((e) => e.name).sort());
  });
});

function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([k, v]) => !(k === "description" && typeof v === "string")).map(([k, v]) => [k, withoutDescriptions(v)]));
}
