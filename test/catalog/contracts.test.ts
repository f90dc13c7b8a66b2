// The catalog against its providers' published API descriptions. For every
// entry whose provider publishes a machine-readable description on npm (a dev
// dependency, pinned), each operation the entry declares, what its mechanical
// calls send and every response path its templates, gates, let, derive and
// select read are checked against that description (./contracts/check-entry.ts).
//
// Looked at on npm, and why each is or is not here (2026-12-01):
// - GitHub: @octokit/openapi 23.0.2, GitHub's own OpenAPI description
//   (generated/api.github.com.json, 13 MB; node >= 18). Checked.
// - HubSpot: @hubspot/api-client 14 is a typed SDK generated from HubSpot's
//   specs, which it does not ship, and requires Node 22. Not checked.
// - Square: `square` 46 is a typed SDK (no OpenAPI file). Not checked.
// - PagerDuty: @pagerduty/pdjs is an HTTP client with no description, but
//   PagerDuty publishes its REST API v2 description on GitHub. The facts the
//   test needs for the operations the catalog calls (their paths,
//   parameters and schemas, no prose) are kept in
//   ./contracts/published/pagerduty-rest-v2.json, taken from
//   PagerDuty/api-schema reference/REST/openapiv3.json at commit
//   91a06fb3c64b0ab2b2bd6c485d12b327dfb55c18 (2026-08-14). Checked.
// - Mailchimp (@mailchimp/mailchimp_marketing), Zendesk (node-zendesk): HTTP
//   clients with no description. Not checked.
// - Google Search Console: @googleapis/searchconsole 11 is TypeScript
//   generated from a discovery document it does not ship, and requires
//   Node 22. Not checked.
// Every entry not checked here says in its README where its shapes come from.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogEntries } from "../../src/cli/catalog.js";
import type { StepfileDocument } from "../../src/format/types.js";
import { loadStepfileFile } from "../../src/loader/load.js";
import { REPO_ROOT } from "../support/paths.js";
import { checkEntry, type Provider } from "./contracts/check-entry.js";
import { PublishedDescription } from "./contracts/published.js";

const require = createRequire(import.meta.url);
const entries = catalogEntries(join(REPO_ROOT, "awesome-stepfiles"));
// Parsing GitHub's 13 MB description takes about half a second, more on a loaded machine.
const SLOW = 120_000;

interface ProviderSource {
  server: string;
  source: string;
  file: () => string;
  commonHeaders: Record<string, string>;
}

const SOURCES: ProviderSource[] = [
  {
    server: "https://api.github.com",
    source: "@octokit/openapi (api.github.com.json)",
    file: () => join(dirname(require.resolve("@octokit/openapi/package.json")), "generated", "api.github.com.json"),
    // GitHub documents this header for every REST request ("API versions"), not per operation.
    commonHeaders: { "X-GitHub-Api-Version": "docs.github.com/rest/about-the-rest-api/api-versions" },
  },
  {
    server: "https://api.pagerduty.com",
    source: "PagerDuty/api-schema (reference/REST/openapiv3.json)",
    file: () => join(REPO_ROOT, "test", "catalog", "contracts", "published", "pagerduty-rest-v2.json"),
    // Accept and Content-Type are declared per operation in the description,
    // and the entry declares them the same way.
    commonHeaders: {},
  },
];

// Each description is parsed once for the whole file, on first use.
const parsed = new Map<string, Provider>();
function provider(source: ProviderSource): Provider {
  let found = parsed.get(source.server);
  if (!found) {
    found = { server: source.server, source: source.source, description: new PublishedDescription(source.file()), commonHeaders: source.commonHeaders };
    parsed.set(source.server, found);
  }
  return found;
}

function servers(doc: StepfileDocument): string[] {
  return Object.values(doc.tools ?? {}).flatMap((t) => (t.openapi ? [t.openapi.server] : []));
}

async function load(file: string): Promise<StepfileDocument> {
  return (await loadStepfileFile(file, "contract")).doc;
}

const loaded = await Promise.all(entries.map(async (e) => ({ entry: e, doc: await load(e.file) })));
const checked = loaded.filter(({ doc }) => servers(doc).some((s) => SOURCES.some((p) => p.server === s)));

describe("catalog entries against their providers' published descriptions", () => {
  it("covers the entries that call a provider with a published description", () => {
    expect(checked.map((c) => c.entry.name).sort()).toEqual(["github-pr-review", "github-release", "pagerduty-incident-review"]);
  });

  it.each(checked.map((c) => [c.entry.name, c.doc] as const))(
    "%s: every operation, parameter, literal argument, body and response field it uses is as published",
    (_name, doc) => {
      for (const source of SOURCES.filter((p) => servers(doc).includes(p.server))) {
        const report = checkEntry(doc, provider(source));
        expect(report.findings).toEqual([]);
        // A clean report that compared nothing would prove nothing.
        expect(report.checked.operations).toBeGreaterThan(1);
        expect(report.checked.parameters).toBeGreaterThan(3);
        expect(report.checked.fields).toBeGreaterThan(10);
        expect(report.checked.paths).toBeGreaterThan(5);
      }
    },
    SLOW,
  );

  it("would have failed on github-release as it was, with per_page: 250 on the compare call", async () => {
    const old = await load(join(REPO_ROOT, "test/catalog/fixtures/github-release-per-page-250.stepfile.json"));
    const report = checkEntry(old, provider(SOURCES[0]!));
    expect(report.findings).toContain(
      'step compare, call comparison (repos-compare-commits): per_page: 250 is above @octokit/openapi (api.github.com.json)\'s maximum 100 (stated in its description: "(max 100)")',
    );
    expect(report.findings).toContain("repos-compare-commits (GET /repos/{owner}/{repo}/compare/{basehead}): parameter per_page: default 250, where @octokit/openapi (api.github.com.json) has 30");
    // It also used a name that is not GitHub's for the operation.
    expect(report.findings).toContain("repos-compare-commits (GET /repos/{owner}/{repo}/compare/{basehead}): @octokit/openapi (api.github.com.json) names it repos/compare-commits-with-basehead");
  }, SLOW);

  it("github-release sends prerelease and make_latest, and a make_latest GitHub does not take would be found", () => {
    const release = structuredClone(checked.find((c) => c.entry.name === "github-release")!.doc) as StepfileDocument;
    const publish = release.steps.find((s) => s.id === "publish")!;
    const body = (publish.do!.calls![0]!.arguments as { body: Record<string, unknown> }).body;
    // Without them GitHub takes prerelease false and make_latest "true": a v3.0.0-rc.1 tag became the Latest full release.
    expect(Object.keys(body)).toEqual(expect.arrayContaining(["prerelease", "make_latest"]));
    expect(checkEntry(release, provider(SOURCES[0]!)).findings).toEqual([]);
    // A computed choice between literals is held to the published enum, each way it can go.
    body.make_latest = { if: [body.prerelease, "no", "legacy"] };
    const report = checkEntry(release, provider(SOURCES[0]!));
    expect(report.findings).toContain(
      'step publish, call release (repos-create-release): body.make_latest: "no" is not one of @octokit/openapi (api.github.com.json)\'s ["true","false","legacy"]',
    );
  }, SLOW);

  it("finds a response field that is not there, a body field that is not there, an undeclared required parameter and a wrong enum", async () => {
    const review = structuredClone(checked.find((c) => c.entry.name === "github-pr-review")!.doc) as StepfileDocument;
    const doc = review.tools!.github!.openapi!.document as { paths: Record<string, Record<string, { parameters: Array<{ name: string }>; requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } }>> };
    // The comments' `line` misspelled in the declared body, an event GitHub does not take, and pull_number dropped.
    const post = doc.paths["/repos/{owner}/{repo}/pulls/{pull_number}/reviews"]!.post!;
    const body = post.requestBody.content["application/json"]!.schema.properties;
    body.events = body.event;
    (body.event as { enum: string[] }).enum = ["COMMENT", "REJECT"];
    post.parameters = post.parameters.filter((p) => p.name !== "pull_number");
    // A response field read that pulls/get does not have.
    const fetch = review.steps.find((s) => s.id === "fetch")!;
    (fetch.do!.output as Record<string, unknown>).head_sha = { var: "responses.pr.head.commit" };
    const report = checkEntry(review, provider(SOURCES[0]!));
    const where = "pulls-create-review (POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews)";
    expect(report.findings).toEqual(
      expect.arrayContaining([
        `${where}: body: field events is not in @octokit/openapi (api.github.com.json) (it has event)`,
        `${where}: body.event: enum values ["REJECT"] are not among @octokit/openapi (api.github.com.json)'s ["APPROVE","REQUEST_CHANGES","COMMENT"]`,
        `${where}: @octokit/openapi (api.github.com.json) requires parameter pull_number (path), which is not declared`,
        expect.stringMatching(/^step fetch: responses\.pr\.head\.commit reads commit, which @octokit\/openapi \(api\.github\.com\.json\) does not declare there \(it has /),
      ]),
    );
  }, SLOW);
});

describe("pagerduty-incident-review against PagerDuty's description", () => {
  it("finds a parameter PagerDuty does not have and a response field it does not send", () => {
    const review = structuredClone(checked.find((c) => c.entry.name === "pagerduty-incident-review")!.doc) as StepfileDocument;
    const doc = review.tools!.pagerduty!.openapi!.document as { paths: Record<string, Record<string, { parameters: Array<{ name: string }> }>> };
    // is_overview misspelt, and the incident's service read as `services`.
    const log = doc.paths["/incidents/{id}/log_entries"]!.get!;
    log.parameters = log.parameters.map((p) => (p.name === "is_overview" ? { ...p, name: "overview" } : p));
    const fetch = review.steps.find((s) => s.id === "fetch")!;
    (fetch.do!.output as Record<string, unknown>).service = { var: "responses.incident.incident.services.summary" };
    const pagerduty = SOURCES.find((p) => p.server === "https://api.pagerduty.com")!;
    const report = checkEntry(review, provider(pagerduty));
    expect(report.findings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^listIncidentLogEntries \(GET \/incidents\/\{id\}\/log_entries\): parameter overview is not in PagerDuty\/api-schema/),
        "step fetch: responses.incident.incident.services reads services, which PagerDuty/api-schema (reference/REST/openapiv3.json) does not declare there (it has service)",
      ]),
    );
  });
});

describe("entries not checked against a published description", () => {
  it.each(loaded.filter((l) => !checked.includes(l)).map((l) => [l.entry.name, l.entry.file] as const))(
    "%s says in its README where its API shapes come from",
    (_name, file) => {
      const readme = readFileSync(join(dirname(file), "README.md"), "utf8");
      const start = readme.indexOf("\n## API shapes\n");
      const shapes = readme.slice(start, readme.indexOf("\n## ", start + 4));
      expect(start).toBeGreaterThan(0);
      expect(shapes, "the API shapes section says this entry is not checked by test/catalog/contracts.test.ts, and why").toContain("contracts.test.ts");
    },
  );
});
