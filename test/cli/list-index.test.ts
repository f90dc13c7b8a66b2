// `stepgate --list` from the build-time catalog index (src/cli/catalog-index.ts):
// the same bytes as loading every entry, never stale for an entry whose
// stepfile changed, and the index the build ships covers the whole catalog.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { catalogEntries } from "../../src/cli/catalog-entries.js";
import { CATALOG_INDEX_FILE, contentHash, indexKey, type CatalogIndex } from "../../src/cli/catalog-index.js";
import { catalogIndex } from "../../src/cli/catalog-listed.js";
import { listCatalog, type CatalogSource } from "../../src/cli/list.js";
import { REPO_ROOT } from "../support/paths.js";

const root = join(REPO_ROOT, "awesome-stepfiles");
const SLOW = 180_000;
const scratch = mkdtempSync(join(tmpdir(), "stepgate-list-index-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function list(words: string[], from: CatalogSource): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await listCatalog(words, (t) => (out += t), (l) => (err += `${l}\n`), from);
  return { code, out, err };
}

describe("--list from the catalog index", () => {
  it("writes exactly what loading every entry writes, filtered or not, typos included", async () => {
    const index = await catalogIndex(root, "test-build");
    expect(Object.keys(index.entries)).toHaveLength(catalogEntries(root).length);
    for (const words of [[], ["finance"], ["keyless", "ECB"], ["approve"], ["oauth2", "(refresh"], ["json"], ["remote", "mcp"], ["finanse"], ["zzzz"]]) {
      const indexed = await list(words, { root, index });
      const loaded = await list(words, { root, index: undefined });
      expect(indexed, `--list ${words.join(" ")}`).toEqual(loaded);
    }
    expect((await list([], { root, index })).out).toBe(readFileSync(join(REPO_ROOT, "test", "fixtures", "golden", "list.txt"), "utf8"));
  }, SLOW);

  it("answers from the index only for a stepfile whose bytes it recorded; an edited, new or invalid entry is loaded", async () => {
    const copy = join(scratch, "catalog");
    for (const name of ["release-notes", "meeting-dates"]) {
      const entry = catalogEntries(root).find((e) => e.name === name)!;
      cpSync(join(root, entry.category, name), join(copy, entry.category, name), { recursive: true });
    }
    const copied = catalogEntries(copy);
    expect(copied.map((e) => e.name)).toEqual(["meeting-dates", "release-notes"]);
    const notes = copied.find((e) => e.name === "release-notes");
    const dates = copied.find((e) => e.name === "meeting-dates");
    const index: CatalogIndex = await catalogIndex(copy, "test-build");
    // An index entry for unchanged bytes is used as it is: make it say something loading would not.
    index.entries[indexKey(copy, notes!.file)]!.listed.title = "Title from the index";
    // The other entry is edited after the index was written.
    const text = readFileSync(dates!.file, "utf8").replace(/^title: .*$/m, "title: Edited after the build");
    expect(text).toContain("title: Edited after the build");
    writeFileSync(dates!.file, text);
    // And one entry is added after the index was written.
    const added = catalogEntries(root).find((e) => e.name === "wiki-brief")!;
    cpSync(join(root, added.category, added.name), join(copy, added.category, added.name), { recursive: true });
    const { out } = await list([], { root: copy, index });
    expect(out).toContain(`  ${notes!.name}  Title from the index\n`);
    expect(out).toContain(`  ${dates!.name}  Edited after the build\n`);
    expect(out).toContain(`  wiki-brief  ${(await list(["wiki-brief"], { root, index: undefined })).out.split("\n")[1]!.replace(/^ {2}wiki-brief {2}/, "")}\n`);
    expect(out).toMatch(/^3 entries;/m);

    // Broken after the build: loaded, so it says why, as without an index.
    writeFileSync(dates!.file, "stepgate: \"1\"\nid: meeting-dates\n");
    const broken = await list(["meeting-dates"], { root: copy, index });
    expect(broken).toEqual(await list(["meeting-dates"], { root: copy, index: undefined }));
    expect(broken.out).toMatch(/^ {2}meeting-dates {2}INVALID: .+$/m);
    // An invalid entry is never in the index.
    expect(Object.keys((await catalogIndex(copy, "test-build")).entries).sort()).toEqual([indexKey(copy, notes!.file), `${added.category}/${added.name}/${basename(added.file)}`].sort());
  }, SLOW);

  it("ships with the build: one index entry per catalog entry, for the bytes in the repository, named for the bundle's build", () => {
    const index = JSON.parse(readFileSync(join(REPO_ROOT, "dist", CATALOG_INDEX_FILE), "utf8")) as CatalogIndex;
    const entries = catalogEntries(root);
    expect(Object.keys(index.entries).sort()).toEqual(entries.map((e) => indexKey(root, e.file)).sort());
    for (const e of entries) expect(index.entries[indexKey(root, e.file)]!.sha256, e.name).toBe(contentHash(readFileSync(e.file)));
    const chunks = catalogBuildIds();
    expect(chunks).toEqual([index.build]);
  });
});

/** The build ids compiled into the bundle's chunks. */
function catalogBuildIds(): string[] {
  const dir = join(REPO_ROOT, "dist", "chunks");
  const ids = new Set<string>();
  for (const file of readdirJs(dir)) for (const m of readFileSync(join(dir, file), "utf8").matchAll(/BUILD_ID\s*=\s*"([^"]+)"/g)) ids.add(m[1]!);
  return [...ids];
}

function readdirJs(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith(".js"));
}
