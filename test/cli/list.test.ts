// `stepgate --list [<word>...]` and "did you mean" for catalog names, through
// the built CLI against the real catalog.
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { catalogEntries } from "../../src/cli/catalog.js";
import { REPO_ROOT } from "../support/paths.js";
import { stepgate } from "../offline/cli.js";

const entries = catalogEntries(join(REPO_ROOT, "awesome-stepfiles"));
// A run answers from the build's catalog index; a loaded machine still takes its time to start it.
const SLOW = 180_000;

describe("stepgate --list", () => {
  it("groups every entry under its domain, each with what it needs", async () => {
    const result = await stepgate("--list");
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.split("\n");
    for (const domain of new Set(entries.map((e) => e.category))) {
      const heading = lines.findIndex((l) => l.startsWith(`${domain} (`));
      expect(heading, `a heading for ${domain}`).toBeGreaterThanOrEqual(0);
      const inDomain = entries.filter((e) => e.category === domain);
      expect(lines[heading]).toBe(`${domain} (${inDomain.length})`);
      for (const e of inDomain) expect(lines.slice(heading + 1, heading + 1 + inDomain.length * 2)).toContainEqual(expect.stringMatching(new RegExp(`^  ${e.name}  `)));
    }
    expect(result.stdout).toContain("  release-notes  Release notes from a list of changes\n      needs: nothing (keyless)\n");
    expect(result.stdout).toMatch(/ {2}github-pr-review {2}.*\n {6}needs: GITHUB_TOKEN_API_KEY, a person to approve/);
    expect(result.stdout).toMatch(/needs: HUBSPOT_API_KEY \(or HUBSPOT_REFRESH_TOKEN \+ HUBSPOT_CLIENT_ID\)/);
    expect(result.stdout).toContain(`${entries.length} entries;`);
  }, SLOW);

  it("filters by domain, and by several words that must all match", async () => {
    const finance = await stepgate("--list", "finance");
    expect(finance.code).toBe(0);
    expect(finance.stdout.split("\n").filter((l) => /^\S/.test(l) && !/entries/.test(l))).toEqual([`finance (${entries.filter((e) => e.category === "finance").length})`]);
    const both = await stepgate("--list", "keyless", "ECB");
    expect(both.code).toBe(0);
    expect(both.stdout).toContain("  fx-revaluation  ");
    expect(both.stdout).not.toContain("square-refund");
    expect(both.stdout).toMatch(/^1 of \d+ entries;/m);
  }, SLOW);

  it("says when nothing matches, with the nearest domain, and exits 1", async () => {
    const result = await stepgate("--list", "finanse");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^stepgate: no catalog entry matches "finanse"; did you mean finance\? \(domains: .*finance.*\)\n$/);
  }, SLOW);
});

describe("did you mean", () => {
  it("names the nearest catalog entry for a typo, when serving and with --test", async () => {
    const served = await stepgate("github-pr-reveiw");
    expect(served.code).toBe(1);
    expect(served.stderr).toContain("github-pr-reveiw is neither a stepfile path (.yaml, .yml, .json) nor a catalog name; did you mean github-pr-review?");
    const tested = await stepgate("--test", "osv-triag");
    expect(tested.code).toBe(2);
    expect(tested.stderr).toContain("did you mean osv-triage?");
  }, SLOW);

  it("tells an old configuration the new name of a renamed entry", async () => {
    const result = await stepgate("npm-upgrade-plan");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("catalog entry npm-upgrade-plan was renamed dependency-upgrade-plan");
  }, SLOW);

  it("offers nothing for a name far from every entry", async () => {
    const result = await stepgate("--test", "completely-unrelated-thing");
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain("did you mean");
  }, SLOW);
});
