// The catalog against its providers' published API descriptions. For every
// entry whose provider publishes a machine-readable description (on npm, or
// in a public repository), each operation the entry declares, what its
// mechanical calls send and every response path its templates, gates, let,
// derive and select read are checked against that description
// (./contracts/check-entry.ts). The providers are the folders of
// ./contracts/published/, each with a source.json naming its repository and
// commit (or npm package and version) and the entries that call it
// (./contracts/sources.ts).
//
// Looked at and not checked, and why (2026-12-02, Zendesk again 2026-12-04):
// - Zendesk: its OpenAPI document is served from its developer site, and no
//   copy of Zendesk's own is in a public repository (looked for again
//   2026-12-04; api-evangelist/zendesk holds a third party's re-edited split).
// - openFDA: JSON Schemas of its records (FDA/openfda schemas/), but no
//   description of its requests and answers.
// - Open Library, Nager.Date, FRED, Greenhouse's Job Board, World Bank,
//   Census: none found in a public repository or on npm (the OpenAPI files
//   found for FRED, Open Library, World Bank and Census are third parties').
// Every entry not checked here says in its README where its shapes come from.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogEntries } from "../../src/cli/catalog.js";
import type { StepfileDocument } from "../../src/format/types.js";
import { loadStepfileFile } from "../../src/loader/load.js";
import { REPO_ROOT } from "../support/paths.js";
import { checkEntry, type Provider } from "./contracts/check-entry.js";
import { PublishedDescription } from "./contracts/published.js";
import { providerSources, type ProviderSource } from "./contracts/sources.js";

const entries = catalogEntries(join(REPO_ROOT, "awesome-stepfiles"));
// Parsing GitHub's 13 MB description takes about half a second, more on a loaded machine.
const SLOW = 120_000;
const SOURCES = providerSources();
const bySource = (name: string): ProviderSource => SOURCES.find((p) => p.name === name)!;

// Each description is parsed once for the whole file, on first use.
const parsed = new Map<string, Provider>();
function provider(source: ProviderSource): Provider {
  let found = parsed.get(source.server);
  if (!found) {
    found = { server: source.server, source: source.source, description: new PublishedDescription(source.file, source.corrections), commonHeaders: source.commonHeaders, pathPrefix: source.pathPrefix, operationNames: source.operationNames, enumNames: source.enumNames, responsesUnpublished: source.responsesUnpublished, publishedPathPrefix: source.publishedPathPrefix };
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
  it.each(SOURCES.map((s) => [s.name, s] as const))("%s: the entries that call its server are the ones its source.json lists", (_name, source) => {
    const calling = loaded.filter(({ doc }) => servers(doc).includes(source.server)).map((l) => l.entry.name).sort();
    expect(calling).toEqual([...source.entries].sort());
    expect(calling.length).toBeGreaterThan(0);
  });

  it.each(checked.map((c) => [c.entry.name, c.doc] as const))(
    "%s: every operation, parameter, literal argument, body and response field it uses is as published",
    (name, doc) => {
      for (const source of SOURCES.filter((p) => servers(doc).includes(p.server))) {
        const report = checkEntry(doc, provider(source));
        const waived = (source.waivers ?? []).filter((w) => w.entry === undefined || w.entry === name).flatMap((w) => w.findings);
        expect(report.findings.filter((f) => !waived.includes(f))).toEqual([]);
        // A waiver that matches nothing any more is stale: remove it.
        expect(waived.filter((w) => !report.findings.includes(w))).toEqual([]);
        // A clean report that compared nothing would prove nothing: every
        // operation and parameter the entry declares was compared (an entry
        // may call one operation, as osv-triage does, or take its input in
        // a body, as Square's refund does).
        expect(report.declared.operations).toBeGreaterThan(0);
        expect(report.checked.operations).toBe(report.declared.operations);
        expect(report.checked.parameters).toBe(report.declared.parameters);
        if (source.responsesUnpublished !== undefined) {
          // A description without response bodies (the Federal Register's,
          // the USGS WADL): what the calls send is what can be compared, the
          // literals of its mechanical calls or, where only the agent calls
          // the provider (earthquake-site-check), the parameters it may send.
          const exposed = new Set(Object.values(doc.tools ?? {}).filter((t) => t.openapi?.server === source.server).flatMap((t) => (t.exposes ?? []).map((e) => (typeof e === "string" ? e : e.name))));
          const mechanical = doc.steps.some((s) => (s.do?.calls ?? []).some((c) => exposed.has(c.operation)));
          expect(mechanical ? report.checked.literals : report.checked.parameters).toBeGreaterThan(5);
          continue;
        }
        // More than ten fields compared and five response paths read, or,
        // for an entry that declares ten fields or fewer (Frankfurter's rates
        // answer has four, wiki-brief reads three of a summary), every field
        // and more than two paths; each such entry also has its own test
        // below that finds a misread field.
        expect(report.declared.fields).toBeGreaterThan(0);
        expect(report.checked.fields).toBeGreaterThanOrEqual(Math.min(11, report.declared.fields));
        expect(report.checked.paths).toBeGreaterThan(report.declared.fields > 10 ? 5 : 2);
      }
    },
    SLOW,
  );

  it("would have failed on github-release as it was, with per_page: 250 on the compare call", async () => {
    const old = await load(join(REPO_ROOT, "test/catalog/fixtures/github-release-per-page-250.stepfile.json"));
    const report = checkEntry(old, provider(bySource("github")));
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
    expect(checkEntry(release, provider(bySource("github"))).findings).toEqual([]);
    // A computed choice between literals is held to the published enum, each way it can go.
    body.make_latest = { if: [body.prerelease, "no", "legacy"] };
    const report = checkEntry(release, provider(bySource("github")));
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
    const report = checkEntry(review, provider(bySource("github")));
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
    const pagerduty = bySource("pagerduty");
    const report = checkEntry(review, provider(pagerduty));
    expect(report.findings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^listIncidentLogEntries \(GET \/incidents\/\{id\}\/log_entries\): parameter overview is not in PagerDuty\/api-schema/),
        "step fetch: responses.incident.incident.services reads services, which PagerDuty/api-schema (reference/REST/openapiv3.json) does not declare there (it has service)",
      ]),
    );
  });

  // The entry's verdicts hang on words PagerDuty chooses: the log entry types
  // it picks the trigger, acknowledgement and resolution by, and the status
  // a reviewable incident has. checkEntry compares paths and declared enums;
  // this holds the literals those expressions compare with to the enums too.
  it("compares log entry types and the incident status with values PagerDuty's enums hold", () => {
    const review = checked.find((c) => c.entry.name === "pagerduty-incident-review")!.doc;
    const fetch = review.steps.find((s) => s.id === "fetch")!;
    const description = provider(bySource("pagerduty")).description;
    const enumOf = (schema: string, field: string): unknown[] =>
      (description.schema({ $ref: `#/components/schemas/${schema}` }).properties as Record<string, { enum: unknown[] }>)[field]!.enum;
    const types = comparedWith(fetch.do!.output, "type");
    const statuses = comparedWith(fetch.gates, "output.status");
    expect(types.sort()).toEqual(["acknowledge_log_entry", "resolve_log_entry", "trigger_log_entry"]);
    // LogEntry's own enum: its AcknowledgeLogEntry part spells the type
    // acknowledgement_log_entry, which neither the base enum nor an API answer uses.
    expect(enumOf("LogEntry", "type")).toEqual(expect.arrayContaining(types));
    expect(statuses).toEqual(["resolved"]);
    expect(enumOf("Incident", "status")).toEqual(expect.arrayContaining(statuses));

    // A declared urgency PagerDuty does not have is a finding.
    const changed = structuredClone(review) as StepfileDocument;
    const doc = changed.tools!.pagerduty!.openapi!.document as { paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: { properties: { incident: { properties: Record<string, { enum?: string[] }> } } } }> }> } }> };
    doc.paths["/incidents/{id}"]!.get.responses["200"]!.content["application/json"]!.schema.properties.incident.properties.urgency!.enum = ["high", "medium", "low"];
    expect(checkEntry(changed, provider(bySource("pagerduty"))).findings).toEqual(
      expect.arrayContaining([expect.stringMatching(/urgency: enum values \["medium"\] are not among PagerDuty\/api-schema/)]),
    );
  });
});

/** The literals an expression tree compares with `{ var: <path> }` under `==`, `===`, `!=` or `!==`. */
function comparedWith(tree: unknown, path: string): unknown[] {
  const found: unknown[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (["==", "===", "!=", "!=="].includes(key) && Array.isArray(value) && value.length === 2) {
        const [a, b] = value as [unknown, unknown];
        const isVar = (v: unknown): boolean => typeof v === "object" && v !== null && (v as { var?: unknown }).var === path;
        if (isVar(a) && typeof b === "string") found.push(b);
        if (isVar(b) && typeof a === "string") found.push(a);
      }
      walk(value);
    }
  };
  walk(tree);
  return [...new Set(found)];
}

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

type Paths = Record<string, Record<string, { parameters: Array<{ name: string }> }>>;

/** A copy of a checked entry to break, with the inline document's paths of one tool. */
function editable(name: string, tool: string): { doc: StepfileDocument; paths: Paths } {
  const doc = structuredClone(checked.find((c) => c.entry.name === name)!.doc) as StepfileDocument;
  return { doc, paths: (doc.tools![tool]!.openapi!.document as { paths: Paths }).paths };
}

function renameParameter(paths: Paths, path: string, method: string, from: string, to: string): void {
  const op = paths[path]![method]!;
  op.parameters = op.parameters.map((p) => (p.name === from ? { ...p, name: to } : p));
}

/** Adds an output field to a mechanical step that reads `field` of every item of a response list. */
function readEach(doc: StepfileDocument, step: string, list: string, field: string): void {
  (doc.steps.find((s) => s.id === step)!.do!.output as Record<string, unknown>)[`${field}-read`] = { map: [{ var: list }, { var: field }] };
}

describe("the entries checked against descriptions kept from public repositories", () => {
  it("xero-overdue-reminders: a query parameter Xero does not have and an invoice field it does not send are found", () => {
    const { doc, paths } = editable("xero-overdue-reminders", "xero");
    // Statuses written as Status, and the amount read as AmountOwing (Xero's field is AmountDue).
    renameParameter(paths, "/Invoices", "get", "Statuses", "Status");
    readEach(doc, "overdue", "responses.invoices.Invoices", "AmountOwing");
    expect(checkEntry(doc, provider(bySource("xero"))).findings).toEqual(
      expect.arrayContaining([
        "getInvoices (GET /Invoices): parameter Status is not in XeroAPI/Xero-OpenAPI (xero_accounting.yaml)",
        expect.stringMatching(/^step overdue: the item\.AmountOwing reads AmountOwing, which XeroAPI\/Xero-OpenAPI \(xero_accounting\.yaml\) does not declare there \(it has Type, Contact/),
      ]),
    );
  });

  it("shipengine-rate-shop: a body field beside the rate request's oneOf that is not there, and rate and weight fields ShipEngine does not send, are found", () => {
    const { doc } = editable("shipengine-rate-shop", "shipengine");
    // rate_options (declared beside the oneOf of shipment_id or shipment) misspelt in the call, and the date read as estimated_delivery.
    const call = doc.steps.find((s) => s.id === "rates")!.do!.calls![0]!.arguments as { body: Record<string, unknown> };
    call.body = { shipment_id: call.body.shipment_id, rate_option: call.body.rate_options };
    readEach(doc, "rates", "responses.rates.rate_response.rates", "estimated_delivery");
    // A rate's errors read as errors (ShipEngine's rate has error_messages; errors is the rate response's), and the weight's unit as units.
    readEach(doc, "rates", "responses.rates.rate_response.rates", "errors");
    (doc.steps.find((s) => s.id === "rates")!.do!.output as Record<string, unknown>)["units-read"] = { var: "responses.rates.total_weight.units" };
    const report = checkEntry(doc, provider(bySource("shipengine")));
    expect(report.findings).toEqual(
      expect.arrayContaining([
        "step rates, call rates (calculate_rates): body field rate_option is not in ShipEngine/shipengine-openapi (openapi.yaml)",
        expect.stringMatching(/^step rates: the item\.estimated_delivery reads estimated_delivery, which ShipEngine\/shipengine-openapi \(openapi\.yaml\) does not declare there/),
        expect.stringMatching(/^step rates: the item\.errors reads errors, which ShipEngine\/shipengine-openapi \(openapi\.yaml\) does not declare there \(it has rate_id, rate_type/),
        "step rates: responses.rates.total_weight.units reads units, which ShipEngine/shipengine-openapi (openapi.yaml) does not declare there (it has unit)",
      ]),
    );
    // The rest of the call is as published: shipment_id, from the oneOf, is found.
    expect(report.findings.filter((f) => f.includes("shipment_id"))).toEqual([]);
  });

  it("bigcommerce-restock-review: paths are read under the server's /stores/{store_hash}/v3, and a filter and a product field BigCommerce does not have are found", () => {
    const { doc, paths } = editable("bigcommerce-restock-review", "bigcommerce");
    // inventory_low written as low_inventory, the warning level read as inventory_warning, and the update's path without the store.
    renameParameter(paths, "/stores/{store_hash}/v3/catalog/products", "get", "inventory_low", "low_inventory");
    readEach(doc, "low", "responses.products.data", "inventory_warning");
    paths["/catalog/products/{product_id}"] = paths["/stores/{store_hash}/v3/catalog/products/{product_id}"]!;
    delete paths["/stores/{store_hash}/v3/catalog/products/{product_id}"];
    expect(checkEntry(doc, provider(bySource("bigcommerce"))).findings).toEqual(
      expect.arrayContaining([
        "getProducts (GET /stores/{store_hash}/v3/catalog/products): parameter low_inventory is not in bigcommerce/docs (reference/catalog/products_catalog.v3.yml)",
        expect.stringMatching(/^step low: the item\.inventory_warning reads inventory_warning, which bigcommerce\/docs \(reference\/catalog\/products_catalog\.v3\.yml\) does not declare there \(it has inventory_warning_level/),
        "updateProduct (PUT /catalog/products/{product_id}): bigcommerce/docs (reference/catalog/products_catalog.v3.yml)'s server has the path /stores/{store_hash}/v3, which this path does not start with",
      ]),
    );
  });
});

describe("intercom-stale-close against Intercom's description", () => {
  it("finds a close request Intercom does not take (its body is one of four shapes) and a search field it does not send", () => {
    const entry = structuredClone(checked.find((c) => c.entry.name === "intercom-stale-close")!.doc) as StepfileDocument;
    const close = entry.steps.find((s) => s.id === "close")!;
    const body = (close.do!.calls![0]!.arguments as { body: Record<string, unknown> }).body;
    // "closed" is a state, not a message_type; and a field of none of the four request shapes.
    body.message_type = "closed";
    body.reason = "stale";
    const find = entry.steps.find((s) => s.id === "find")!;
    (find.do!.output as Record<string, unknown>).more = { var: "responses.search.pages.next_page" };
    const report = checkEntry(entry, provider(bySource("intercom")));
    const where = "step close, call close (manageConversation)";
    expect(report.findings).toEqual(
      expect.arrayContaining([
        `${where}: body.message_type: "closed" is not one of intercom/Intercom-OpenAPI (descriptions/2.16/api.intercom.io.yaml)'s ["close"]`,
        `${where}: body field reason is not in intercom/Intercom-OpenAPI (descriptions/2.16/api.intercom.io.yaml)`,
        expect.stringMatching(/^step find: responses\.search\.pages\.next_page reads next_page, which intercom\/Intercom-OpenAPI .* does not declare there \(it has /),
      ]),
    );
  });
});

describe("intercom-stale-close's search and reads against Intercom's description", () => {
  it("holds each filter of the AND group to the single-filter shape, and reads the pages and each conversation's parts as published", () => {
    const entry = structuredClone(checked.find((c) => c.entry.name === "intercom-stale-close")!.doc) as StepfileDocument;
    const find = entry.steps.find((s) => s.id === "find")!;
    const query = (find.do!.calls![0]!.arguments as { body: { query: { value: Record<string, unknown>[] } } }).body.query;
    // "==" is no Intercom operator: found on the filter, not as a single
    // filter whose operator "AND" is wrong.
    query.value[0]!.operator = "==";
    const page2 = (find.do!.calls![1]!.arguments as { body: { pagination: Record<string, unknown> } }).body.pagination;
    page2.cursor = page2.starting_after;
    const draft = entry.steps.find((s) => s.id === "draft")!;
    draft.let!.customer_last = JSON.parse(JSON.stringify(draft.let!.customer_last).replaceAll("author.type", "author.role")) as never;
    const report = checkEntry(entry, provider(bySource("intercom")));
    const source = "intercom/Intercom-OpenAPI (descriptions/2.16/api.intercom.io.yaml)";
    expect(report.findings).toContain(`step find, call search (searchConversations): body.query.value[0].operator: "==" is not one of ${source}'s ["=","!=","IN","NIN","<","<=",">",">=","~","!~","^","$"]`);
    expect(report.findings.filter((f) => f.includes('"AND" is not one of'))).toEqual([]);
    expect(report.findings).toContain(`step find, call page2 (searchConversations): body.pagination: {"per_page":150,"starting_after":{"var":"item"},"cursor":{"var":"item"}} has field cursor, which ${source} does not list`);
    expect(report.findings).toContain(`step draft: the item.author.role reads role, which ${source} does not declare there (it has type, id, name, email, from_ai_agent, is_ai_answer)`);
  });
});

describe("asana-weekly-status against Asana's description", () => {
  it("reads only the optional fields its list call asks for, each one Asana offers", () => {
    const entry = structuredClone(checked.find((c) => c.entry.name === "asana-weekly-status")!.doc) as StepfileDocument;
    const collect = entry.steps.find((s) => s.id === "collect")!;
    const args = collect.do!.calls!.find((c) => c.id === "tasks")!.arguments as { opt_fields: string[] };
    // due_at forgotten (Asana would send the compact record without it) and a field Asana does not offer.
    args.opt_fields = [...args.opt_fields.filter((f) => f !== "due_at"), "due_date"];
    const report = checkEntry(entry, provider(bySource("asana")));
    expect(report.findings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^step collect, call tasks \(getTasksForProject\): opt_fields\[\d+\]: "due_date" is not one of Asana\/openapi/),
        expect.stringMatching(/^step collect: the item\.due_at reads due_at, which Asana\/openapi \(defs\/asana_oas\.yaml\) does not declare there/),
      ]),
    );
  });

  it("follows next_page by the offset Asana names, and reads each later page's tasks as Asana declares them", () => {
    const entry = structuredClone(checked.find((c) => c.entry.name === "asana-weekly-status")!.doc) as StepfileDocument;
    const collect = entry.steps.find((s) => s.id === "collect")!;
    const page2 = collect.do!.calls!.find((c) => c.id === "page2")!;
    // The token read from a field NextPage does not have, and a later page's task read by a name TaskCompact does not have.
    page2.each = JSON.parse(JSON.stringify(page2.each).replaceAll("next_page.offset", "next_page.next_offset")) as never;
    const output = collect.do!.output as Record<string, unknown>;
    output.tasks = JSON.parse(JSON.stringify(output.tasks).replace('{"map":[{"var":"responses.page3"},{"map":[{"var":"data"},{"object":[["gid",{"var":"gid"}]', '{"map":[{"var":"responses.page3"},{"map":[{"var":"data"},{"object":[["gid",{"var":"task_gid"}]')) as never;
    const report = checkEntry(entry, provider(bySource("asana")));
    expect(report.findings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^step collect: responses\.tasks\.next_page\.next_offset reads next_offset, which Asana\/openapi \(defs\/asana_oas\.yaml\) does not declare there \(it has offset/),
        expect.stringMatching(/^step collect: the item\.task_gid reads task_gid, which Asana\/openapi \(defs\/asana_oas\.yaml\) does not declare there/),
      ]),
    );
  });
});

describe("sea-state-go-no-go against Open-Meteo's marine description", () => {
  it("finds a daily variable Open-Meteo does not offer and a daily field it does not send", () => {
    const entry = structuredClone(checked.find((c) => c.entry.name === "sea-state-go-no-go")!.doc) as StepfileDocument;
    const forecast = entry.steps.find((s) => s.id === "forecast")!;
    const args = forecast.do!.calls![0]!.arguments as { daily: string[] };
    // The hourly variable's name asked for as a daily one, and read as such.
    args.daily = ["wave_height", "swell_wave_height_max", "wave_direction_dominant"];
    (forecast.do!.output as Record<string, unknown>).counts = [{ length: { var: "responses.marine.daily.wave_height" } }];
    const report = checkEntry(entry, provider(bySource("open-meteo-marine")));
    expect(report.findings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^step forecast, call marine \(getMarineForecast\): daily\[\d+\]: "wave_height" is not one of open-meteo\/open-meteo/),
        expect.stringMatching(/^step forecast: responses\.marine\.daily\.wave_height reads wave_height, which open-meteo\/open-meteo \(openapi\/marine\.yml\) does not declare there \(it has /),
      ]),
    );
  });
});

describe("sentry-release-triage against Sentry's description", () => {
  it("finds a query parameter Sentry does not have and an issue field it does not send", () => {
    const triage = structuredClone(checked.find((c) => c.entry.name === "sentry-release-triage")!.doc) as StepfileDocument;
    const doc = triage.tools!.sentry!.openapi!.document as { paths: Record<string, Record<string, { parameters: Array<{ name: string }> }>> };
    // statsPeriod written in snake case, and the short id read as shortID.
    const list = doc.paths["/api/0/organizations/{organization_id_or_slug}/issues/"]!.get!;
    list.parameters = list.parameters.map((p) => (p.name === "statsPeriod" ? { ...p, name: "stats_period" } : p));
    const listing = triage.steps.find((s) => s.id === "list")!;
    (listing.do!.output as Record<string, unknown>).first = { var: "responses.issues.0.shortID" };
    const report = checkEntry(triage, provider(bySource("sentry")));
    expect(report.findings).toEqual(
      expect.arrayContaining([
        "listOrganizationIssues (GET /api/0/organizations/{organization_id_or_slug}/issues/): parameter stats_period is not in getsentry/sentry-api-schema (openapi-derefed.json)",
        expect.stringMatching(/^step list: responses\.issues\.0\.shortID reads shortID, which getsentry\/sentry-api-schema \(openapi-derefed\.json\) does not declare there \(it has shortId/),
      ]),
    );
  });
});

describe("slack-channel-digest against Slack's description", () => {
  it("finds a history parameter Slack does not have, a field it does not send, and reads its ok: false body as the default response", () => {
    const digest = structuredClone(checked.find((c) => c.entry.name === "slack-channel-digest")!.doc) as StepfileDocument;
    const doc = digest.tools!.slack!.openapi!.document as { paths: Record<string, Record<string, { parameters: Array<{ name: string }> }>> };
    const history = doc.paths["/conversations.history"]!.get!;
    history.parameters = history.parameters.map((p) => (p.name === "inclusive" ? { ...p, name: "inclusive_end" } : p));
    const fetch = digest.steps.find((s) => s.id === "fetch")!;
    const output = fetch.do!.output as Record<string, unknown>;
    output.complete = { "!": { var: "responses.history.hasMore" } };
    const slack = provider(bySource("slack"));
    const report = checkEntry(digest, slack);
    expect(report.findings).toEqual(
      expect.arrayContaining([
        "conversations_history (GET /conversations.history): parameter inclusive_end is not in slackapi/slack-api-specs (web-api/slack_web_openapi_v2.json)",
        expect.stringMatching(/^step fetch: responses\.history\.hasMore reads hasMore, which slackapi\/slack-api-specs \(web-api\/slack_web_openapi_v2\.json\) does not declare there \(it has .*has_more/),
      ]),
    );
    // The error code is read from the default response, where Slack's description puts the ok: false body.
    expect(report.findings.filter((f) => f.includes("responses.history.error"))).toEqual([]);
    output.errors = { var: "responses.history.err" };
    expect(checkEntry(digest, slack).findings).toEqual(expect.arrayContaining([expect.stringMatching(/^step fetch: responses\.history\.err reads err, which .* \(it has .*error/)]));
  });

  it("compares every field it declares, a thread's messages included, read as Slack's reference gives them", () => {
    const slack = provider(bySource("slack"));
    const clean = checkEntry(checked.find((c) => c.entry.name === "slack-channel-digest")!.doc, slack);
    // A shape with a finding inside it still counts its fields as compared.
    expect(clean.checked.fields).toBe(clean.declared.fields);
    expect(clean.findings.filter((f) => f.includes("response.messages[]") || f.includes("the item."))).toEqual([]);
    const digest = structuredClone(checked.find((c) => c.entry.name === "slack-channel-digest")!.doc) as StepfileDocument;
    const message = (digest.tools!.slack!.openapi!.document as { components: { schemas: { message: { properties: Record<string, unknown> } } } }).components.schemas.message;
    message.properties.reply_count = { type: "string" };
    const fetch = digest.steps.find((s) => s.id === "fetch")!;
    const output = fetch.do!.output as Record<string, unknown>;
    output.threads = { map: [{ var: "responses.replies" }, { object: [["thread_ts", { var: ["messages.0.thread", null] }]] }] };
    expect(checkEntry(digest, slack).findings).toEqual(
      expect.arrayContaining([
        "conversations_replies (GET /conversations.replies): 200 response.messages[].reply_count: type string, where slackapi/slack-api-specs (web-api/slack_web_openapi_v2.json) has integer",
        expect.stringMatching(/^step fetch: the item\.messages\.0\.thread reads thread, which slackapi\/slack-api-specs \(web-api\/slack_web_openapi_v2\.json\) does not declare there \(it has .*thread_ts/),
      ]),
    );
  });

  it("refuses a correction that no longer matches the description", () => {
    const source = bySource("slack");
    const at = source.corrections![0]!.at.replace("/properties/messages/items", "/properties/has_more");
    expect(() => new PublishedDescription(source.file, [{ ...source.corrections![0]!, at }])).toThrow(/no longer has a bare list of shapes under items there/);
  });
});

describe("trip-weather-plan against Open-Meteo's forecast description", () => {
  it("finds coordinates sent as numbers and a daily variable the forecast does not offer", () => {
    const plan = structuredClone(checked.find((c) => c.entry.name === "trip-weather-plan")!.doc) as StepfileDocument;
    const doc = plan.tools!.forecast!.openapi!.document as { paths: Record<string, { get: { parameters: Array<{ name: string; schema: { type?: string; items?: { enum: string[] } } }> } }> };
    const params = doc.paths["/v1/forecast"]!.get.parameters;
    // As the entry was before: latitude a number, where Open-Meteo takes text (a comma-separated list).
    params.find((p) => p.name === "latitude")!.schema = { type: "number" };
    params.find((p) => p.name === "daily")!.schema.items!.enum.push("heating_degree_days");
    const report = checkEntry(plan, provider(bySource("open-meteo-forecast")));
    expect(report.findings).toEqual(
      expect.arrayContaining([
        "getForecast (GET /v1/forecast): parameter latitude: type number, where open-meteo/open-meteo (openapi/forecast.yml) has string",
        expect.stringMatching(/^getForecast \(GET \/v1\/forecast\): parameter daily\[\]: enum values \["heating_degree_days"\] are not among open-meteo\/open-meteo \(openapi\/forecast\.yml\)'s \["weather_code",/),
      ]),
    );
  });
});

describe("square-refund against Square's connect-api-specification", () => {
  it("finds a response field Square does not send and a body field it does not take", () => {
    const refund = structuredClone(checked.find((c) => c.entry.name === "square-refund")!.doc) as StepfileDocument;
    const payment = refund.steps.find((s) => s.id === "payment")!;
    (payment.do!.output as Record<string, unknown>).refunded = { var: "responses.payment.payment.refunded_amount.amount" };
    const send = refund.steps.find((s) => s.id === "refund")!;
    (send.do!.calls![0]!.arguments as { body: Record<string, unknown> }).body.note = "late delivery";
    const report = checkEntry(refund, provider(bySource("square")));
    expect(report.findings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^step payment: responses\.payment\.payment\.refunded_amount reads refunded_amount, which square\/connect-api-specification \(api\.json\) does not declare there \(it has /),
        "step refund, call refund (RefundPayment): body field note is not in square/connect-api-specification (api.json)",
      ]),
    );
  });
});

describe("osv-triage against OSV.dev's published Swagger description", () => {
  it("follows each record through the flattened pages, and finds a field OSV does not send", () => {
    const triage = structuredClone(checked.find((c) => c.entry.name === "osv-triage")!.doc) as StepfileDocument;
    const query = triage.steps.find((s) => s.id === "query")!;
    // The records' list, read through map and flatten over every page, with a field misnamed in each record.
    const vulns = (query.do!.output as { vulns: { map: [unknown, { object: Array<[string, unknown]> }] } }).vulns;
    vulns.map[1].object = vulns.map[1].object.map(([k, v]) => [k, k === "summary" ? { var: ["title", ""] } : v]);
    const report = checkEntry(triage, provider(bySource("osv")));
    expect(report.findings).toEqual([expect.stringMatching(/^step query: the item\.title reads title, which google\/osv\.dev \(docs\/osv_service_v1\.swagger\.json\) does not declare there/)]);
  });
});

describe("hubspot-deal-followups against HubSpot's public API spec collection", () => {
  it("finds a response field HubSpot does not send, an association category it does not take, and a path it does not publish", () => {
    const followups = structuredClone(checked.find((c) => c.entry.name === "hubspot-deal-followups")!.doc) as StepfileDocument;
    const search = followups.steps.find((s) => s.id === "search")!;
    (search.do!.output as Record<string, unknown>).total = { var: "responses.deals.totalCount" };
    const doc = followups.tools!.hubspot!.openapi!.document as { paths: Record<string, Record<string, unknown>> };
    const create = JSON.stringify(doc.paths["/crm/v3/objects/tasks/batch/create"]).replace('"USER_DEFINED"', '"SYSTEM_DEFINED"');
    doc.paths["/crm/v3/objects/tasks/batch/create"] = JSON.parse(create) as Record<string, unknown>;
    // The search under the object's name rather than its type id, which the published deals description does not list.
    doc.paths["/crm/v3/objects/deals/search"] = doc.paths["/crm/v3/objects/0-3/search"]!;
    delete doc.paths["/crm/v3/objects/0-3/search"];
    const report = checkEntry(followups, provider(bySource("hubspot")));
    const source = "HubSpot/HubSpot-public-api-spec-collection (CRM Deals and Tasks v3)";
    expect(report.findings).toEqual(
      expect.arrayContaining([
        `deals-search (POST /crm/v3/objects/deals/search): ${source} has no POST /crm/v3/objects/deals/search`,
        `tasks-batch-create (POST /crm/v3/objects/tasks/batch/create): body.inputs[].associations[].types[].associationCategory: enum values ["SYSTEM_DEFINED"] are not among ${source}'s ["HUBSPOT_DEFINED","INTEGRATOR_DEFINED","USER_DEFINED","WORK"]`,
      ]),
    );
    // With the search path restored, the misread total is found too.
    doc.paths["/crm/v3/objects/0-3/search"] = doc.paths["/crm/v3/objects/deals/search"]!;
    delete doc.paths["/crm/v3/objects/deals/search"];
    expect(checkEntry(followups, provider(bySource("hubspot"))).findings).toContainEqual(expect.stringMatching(/^step search: responses\.deals\.totalCount reads totalCount, which HubSpot/));
  });
});

describe("search-console-report against Google's Search Console discovery document", () => {
  it("takes the documented spelling of a protocol-buffer enum, and finds a dimension and a row field Google does not have", () => {
    const report0 = checkEntry(checked.find((c) => c.entry.name === "search-console-report")!.doc, provider(bySource("google-search-console")));
    // dimensions [query] and type web were compared with QUERY and WEB, and held.
    expect(report0.checked.literals).toBeGreaterThan(3);
    const entry = structuredClone(checked.find((c) => c.entry.name === "search-console-report")!.doc) as StepfileDocument;
    const fetch = entry.steps.find((s) => s.id === "fetch")!;
    const body = (fetch.do!.calls![0]!.arguments as { body: Record<string, unknown> }).body;
    body.dimensions = ["keyword"];
    body.type = "googleNews";
    const current = (fetch.do!.output as { current: { map: [unknown, { object: Array<[string, unknown]> }] } }).current;
    current.map[1].object[0] = ["query", { var: "key.0" }];
    const report = checkEntry(entry, provider(bySource("google-search-console")));
    expect(report.findings).toEqual([
      expect.stringMatching(/^step fetch, call current \(querySearchAnalytics\): body\.dimensions\[0\]: "keyword" is not one of Google's .*\["DATE","QUERY","PAGE","COUNTRY","DEVICE","SEARCH_APPEARANCE"\]$/),
      expect.stringMatching(/^step fetch: the item\.key reads key, which Google's Search Console API discovery document .* does not declare there \(it has keys/),
    ]);
  });
});

describe("literature-scan and reference-check against Crossref's Swagger description", () => {
  it("reads what the agent is shown through the published work list, and finds a field Crossref does not send", () => {
    const scan = structuredClone(checked.find((c) => c.entry.name === "literature-scan")!.doc) as StepfileDocument;
    const exposed = scan.tools!.crossref!.exposes![0] as { select: { map: [unknown, { object: Array<[string, unknown]> }] } };
    exposed.select.map[1].object = exposed.select.map[1].object.map(([k, v]) => [k, k === "cited_by" ? { var: "cited-by-count" } : v]);
    const report = checkEntry(scan, provider(bySource("crossref")));
    // Less the query it requires where Crossref does not, a choice its source.json waives with why.
    const waived = (bySource("crossref").waivers ?? []).filter((w) => w.entry === "literature-scan").flatMap((w) => w.findings);
    expect(report.findings.filter((f) => !waived.includes(f))).toEqual([expect.stringMatching(/^select of searchWorks: the item\.cited-by-count reads cited-by-count, which Crossref's REST API Swagger description .* does not declare there \(it has /)]);
  });
});

describe("dependency-upgrade-plan against deps.dev's api.proto", () => {
  it("holds the declared fields to the proto3 JSON names, and finds a field under its proto name", () => {
    const plan = structuredClone(checked.find((c) => c.entry.name === "dependency-upgrade-plan")!.doc) as StepfileDocument;
    const doc = plan.tools!.depsdev!.openapi!.document as { paths: Record<string, Record<string, unknown>> };
    // The version's default flag declared as the .proto spells it, not as the JSON API sends it.
    const path = "/v3/systems/{versionKey.system}/packages/{versionKey.name}/versions/{versionKey.version}";
    doc.paths[path] = JSON.parse(JSON.stringify(doc.paths[path]).replace('"isDefault"', '"is_default"')) as Record<string, unknown>;
    const report = checkEntry(plan, provider(bySource("deps-dev")));
    expect(report.findings).toEqual([expect.stringMatching(/^GetVersion \(GET .*\): 200 response: field is_default is not in google\/deps\.dev \(api\/v3\/api\.proto\) \(it has .*isDefault/)]);
  });
});

describe("nws-alert-shift-briefing against the National Weather Service's description", () => {
  type Media = Record<string, { schema: { properties: { features: { items: { properties: { properties: { properties: Record<string, { enum?: string[] }> } } } } } } }>;
  const answer = (doc: StepfileDocument): Media => (doc.tools!.nws!.openapi!.document as { paths: Record<string, { get: { responses: Record<string, { content: Media }> } }> }).paths["/alerts/active"]!.get.responses["200"]!.content;

  it("reads the answer as NWS sends it, application/geo+json, and finds a severity NWS does not grade and a pagination field it does not send", () => {
    const entry = structuredClone(checked.find((c) => c.entry.name === "nws-alert-shift-briefing")!.doc) as StepfileDocument;
    const alert = answer(entry)["application/geo+json"]!.schema.properties.features.items.properties.properties.properties;
    alert.severity!.enum!.push("High");
    const fetch = entry.steps.find((s) => s.id === "fetch")!;
    (fetch.do!.output as Record<string, unknown>).next_page = { var: "responses.alerts.pagination.nextPage" };
    const report = checkEntry(entry, provider(bySource("nws")));
    expect(report.findings).toEqual([
      `alerts_active (GET /alerts/active): 200 response.features[].properties.severity: enum values ["High"] are not among weather-gov/api (assets/openapi.yaml)'s ["Extreme","Severe","Moderate","Minor","Unknown"]`,
      "step fetch: responses.alerts.pagination.nextPage reads nextPage, which weather-gov/api (assets/openapi.yaml) does not declare there (it has next)",
    ]);
  });

  it("finds an answer declared as application/json, which NWS does not send", () => {
    const entry = structuredClone(checked.find((c) => c.entry.name === "nws-alert-shift-briefing")!.doc) as StepfileDocument;
    const content = answer(entry);
    content["application/json"] = content["application/geo+json"]!;
    delete content["application/geo+json"];
    expect(checkEntry(entry, provider(bySource("nws"))).findings).toEqual([
      "alerts_active (GET /alerts/active): weather-gov/api (assets/openapi.yaml) declares no application/json body for 200 (it has application/geo+json, application/ld+json)",
    ]);
  });
});

describe("fx-revaluation against Frankfurter's published v1 description", () => {
  it("reads the path under the server's /v1, and finds a parameter Frankfurter does not have and a field it does not send", () => {
    const { doc, paths } = editable("fx-revaluation", "frankfurter");
    // symbols written as currencies (v2's name is quotes), and the rates' day read as rate_date.
    renameParameter(paths, "/v1/{date}", "get", "symbols", "currencies");
    (doc.steps.find((s) => s.id === "rates")!.do!.output as Record<string, unknown>).day = { var: "responses.ecb.0.rate_date" };
    const source = "lineofflight/frankfurter (lib/public/v1/openapi.json)";
    expect(checkEntry(doc, provider(bySource("frankfurter"))).findings).toEqual([
      `getHistoricalRates (GET /v1/{date}): parameter currencies is not in ${source}`,
      `step rates: responses.ecb.0.rate_date reads rate_date, which ${source} does not declare there (it has date)`,
    ]);
    // The same path without /v1 is not Frankfurter's.
    paths["/{date}"] = paths["/v1/{date}"]!;
    delete paths["/v1/{date}"];
    expect(checkEntry(doc, provider(bySource("frankfurter"))).findings).toContain(`getHistoricalRates (GET /{date}): ${source}'s server has the path /v1, which this path does not start with`);
  });
});

describe("federal-register-watch against the Federal Register's published description", () => {
  it("finds the entry as it was (documents.json, order as text), a field the Register does not have and a page above its maximum", () => {
    const { doc, paths } = editable("federal-register-watch", "federal-register");
    const source = "usnationalarchives/federalregister-api-core (data/open_api_v3.yml)";
    const search = doc.steps.find((s) => s.id === "search")!.do!.calls![0]!.arguments as Record<string, unknown>;
    // Compared as the entry is: what it sends, not what it reads (the description has no response bodies).
    expect(checkEntry(doc, provider(bySource("federal-register"))).checked.literals).toBeGreaterThan(10);
    search["fields[]"] = [...(search["fields[]"] as string[]), "comments_close_date"];
    search.per_page = 2000;
    expect(checkEntry(doc, provider(bySource("federal-register"))).findings).toEqual([
      expect.stringMatching(/^step search, call documents \(searchDocuments\): fields\[\]\[9\]: "comments_close_date" is not one of usnationalarchives\/federalregister-api-core .*\["abstract","action","agencies",/),
      `step search, call documents (searchDocuments): per_page: 2000 is above ${source}'s maximum 1000`,
    ]);
    // The path and order as the entry had them before it was checked.
    paths["/documents.json"] = paths["/documents.{format}"]!;
    delete paths["/documents.{format}"];
    expect(checkEntry(doc, provider(bySource("federal-register"))).findings).toContain(`searchDocuments (GET /documents.json): ${source} has no GET /documents.json`);
    paths["/documents.{format}"] = paths["/documents.json"]!;
    delete paths["/documents.json"];
    const order = paths["/documents.{format}"]!.get!.parameters.find((p) => p.name === "order") as unknown as { schema: unknown };
    order.schema = { type: "string", enum: ["relevance", "newest", "oldest", "executive_order_number"] };
    search.order = "oldest";
    expect(checkEntry(doc, provider(bySource("federal-register"))).findings).toEqual(
      expect.arrayContaining([`searchDocuments (GET /documents.{format}): parameter order: type string, where ${source} has array`, `step search, call documents (searchDocuments): order: "oldest" is string, where ${source} has array`]),
    );
  });
});

describe("wiki-brief against the Page Content Service's summary description", () => {
  it("looks the path up under the service's /{domain}/v1, and finds a misread link and a misspelt title", () => {
    const entry = structuredClone(checked.find((c) => c.entry.name === "wiki-brief")!.doc) as StepfileDocument;
    const source = "wikimedia/mediawiki-services-mobileapps (spec/page/summary.yaml)";
    expect(checkEntry(entry, provider(bySource("wikimedia-pcs"))).checked.operations).toBe(1);
    // Without the service's prefix the public path is not in its description.
    expect(checkEntry(entry, { ...provider(bySource("wikimedia-pcs")), publishedPathPrefix: undefined }).findings).toEqual([`getPageSummary (GET /page/summary/{title}): ${source} has no GET /page/summary/{title}`]);
    // The page link read from content_urls.desktop.url (it is page), and the title as display_title (it is displaytitle).
    const exposed = entry.tools!.wikipedia!.exposes![0] as { select: { object: Array<[string, unknown]> } };
    exposed.select.object = exposed.select.object.map(([k, v]) => [k, k === "url" ? { var: "content_urls.desktop.url" } : k === "title" ? { var: "display_title" } : v]);
    expect(checkEntry(entry, provider(bySource("wikimedia-pcs"))).findings).toEqual([
      `select of getPageSummary: the item.display_title reads display_title, which ${source} does not declare there (it has title)`,
      `select of getPageSummary: the item.content_urls.desktop.url reads url, which ${source} does not declare there (it has page, revisions, edit, talk)`,
    ]);
  });
});

describe("required-ness, against the providers' descriptions", () => {
  const slackSource = "slackapi/slack-api-specs (web-api/slack_web_openapi_v2.json)";

  it("would have failed on slack-channel-digest as it was, requiring a has_more Slack does not promise in a thread's answer", async () => {
    const old = await load(join(REPO_ROOT, "test/catalog/fixtures/slack-channel-digest-has-more-required.stepfile.yaml"));
    const report = checkEntry(old, provider(bySource("slack")));
    expect(report.findings).toContain(`conversations_replies (GET /conversations.replies): 200 response: field has_more is required here, where ${slackSource} does not promise it`);
    // The history's has_more is one Slack's description requires: no finding.
    expect(report.findings.filter((f) => f.startsWith("conversations_history") && f.includes("has_more"))).toEqual([]);
  });

  it("finds an answer field required deeper down, and a request parameter made required where Slack leaves it optional", () => {
    const { doc, paths } = editable("slack-channel-digest", "slack");
    const message = (doc.tools!.slack!.openapi!.document as { components: { schemas: { message: { required: string[] } } } }).components.schemas.message;
    message.required = [...message.required, "reply_count"];
    const history = paths["/conversations.history"]!.get!;
    history.parameters = history.parameters.map((p) => (p.name === "limit" ? { ...p, required: true } : p));
    const findings = checkEntry(doc, provider(bySource("slack"))).findings;
    expect(findings).toEqual(
      expect.arrayContaining([
        `conversations_history (GET /conversations.history): 200 response.messages[]: field reply_count is required here, where ${slackSource} does not promise it`,
        `conversations_history (GET /conversations.history): parameter limit is required here and optional in ${slackSource}`,
      ]),
    );
  });

  it("finds request fields HubSpot requires that the entry leaves optional or leaves out, at every depth", () => {
    const { doc, paths } = editable("hubspot-deal-followups", "hubspot");
    type Obj = { required?: string[]; properties: Record<string, Obj>; items: Obj };
    const body = (paths["/crm/v3/objects/tasks/batch/create"]!.post as unknown as { requestBody: { content: Record<string, { schema: Obj }> } }).requestBody.content["application/json"]!.schema;
    const association = body.properties.inputs!.items.properties.associations!.items;
    delete association.required;
    delete association.properties.to!.properties.id;
    delete association.properties.to!.required;
    const search = (paths["/crm/v3/objects/0-3/search"]!.post as unknown as { requestBody: { content: Record<string, { schema: Obj }> } }).requestBody.content["application/json"]!.schema;
    search.required = search.required!.filter((r) => r !== "limit");
    const source = "HubSpot/HubSpot-public-api-spec-collection (CRM Deals and Tasks v3)";
    const findings = checkEntry(doc, provider(bySource("hubspot"))).findings;
    expect(findings).toEqual(
      expect.arrayContaining([
        `tasks-batch-create (POST /crm/v3/objects/tasks/batch/create): body.inputs[].associations[]: field to is required in ${source}, and optional here`,
        `tasks-batch-create (POST /crm/v3/objects/tasks/batch/create): body.inputs[].associations[]: field types is required in ${source}, and optional here`,
        `tasks-batch-create (POST /crm/v3/objects/tasks/batch/create): body.inputs[].associations[].to: field id is required in ${source}, and not declared`,
        `deals-search (POST /crm/v3/objects/0-3/search): body: field limit is required in ${source}, and optional here`,
      ]),
    );
  });

  it("finds a request body the provider requires left optional, and a request field made required where the provider leaves it optional", () => {
    const { doc, paths } = editable("shipengine-rate-shop", "shipengine");
    const rates = paths["/v1/rates"]!.post as unknown as { requestBody: { required?: boolean; content: Record<string, { schema: { required: string[] } }> } };
    delete rates.requestBody.required;
    const source = "ShipEngine/shipengine-openapi (openapi.yaml)";
    const findings = checkEntry(doc, provider(bySource("shipengine"))).findings;
    expect(findings).toContain(`calculate_rates (POST /v1/rates): ${source} requires a request body, which is optional here`);
    // Stricter than ShipEngine: a finding, kept in source.json as a waiver that says why.
    expect(findings).toContain(`calculate_rates (POST /v1/rates): body: field rate_options is required here and optional in ${source}`);
    expect(bySource("shipengine").waivers!.flatMap((w) => w.findings)).toContain(`calculate_rates (POST /v1/rates): body: field rate_options is required here and optional in ${source}`);
  });

  it("reads as required what a description promises only in words, and refuses such a correction once it is stale", () => {
    const nws = bySource("nws");
    const entry = checked.find((c) => c.entry.name === "nws-alert-shift-briefing")!.doc;
    expect(checkEntry(entry, provider(nws)).findings).toEqual([]);
    // Without the correction, the CAP fields the entry requires are not promised by the schema.
    const bare: Provider = { ...provider(nws), description: new PublishedDescription(nws.file) };
    const findings = checkEntry(entry, bare).findings;
    expect(findings).toHaveLength(nws.corrections![0]!.fields!.length);
    expect(findings).toContain("alerts_active (GET /alerts/active): 200 response.features[].properties: field severity is required here, where weather-gov/api (assets/openapi.yaml) does not promise it");
    const correction = nws.corrections![0]!;
    expect(() => new PublishedDescription(nws.file, [{ ...correction, fields: [...correction.fields!, "severityLevel"] }])).toThrow(/no longer declares severityLevel there/);
    expect(() => new PublishedDescription(nws.file, [correction, correction])).toThrow(/now requires id itself/);
  });

  it("holds each waiver for one entry to an entry that calls the provider", () => {
    for (const source of SOURCES) for (const w of source.waivers ?? []) if (w.entry !== undefined) expect(source.entries).toContain(w.entry);
  });
});

describe("mailchimp-send-review against Mailchimp's Marketing API description", () => {
  const source = "mailchimp/fern-marketing-api-docs (fern/apis/mailchimp-openapi/openapi.json)";

  it("reads each path under the description's /3.0, and would have found the operation names the entry used before", () => {
    const { doc, paths } = editable("mailchimp-send-review", "mailchimp");
    // The names the entry first gave its operations (its own, not Mailchimp's).
    const renamed: Record<string, string> = { getCampaignsId: "getCampaign", getCampaignsIdSendChecklist: "getSendChecklist", getCampaignsIdContent: "getCampaignContent", postCampaignsIdActionsSend: "sendCampaign" };
    for (const item of Object.values(paths)) for (const op of Object.values(item) as unknown as Array<{ operationId: string }>) op.operationId = renamed[op.operationId] ?? op.operationId;
    const tool = doc.tools!.mailchimp!;
    tool.exposes = Object.values(renamed);
    const findings = checkEntry(doc, provider(bySource("mailchimp"))).findings;
    expect(findings).toContain(`getCampaign (GET /campaigns/{campaign_id}): ${source} names it getCampaignsId`);
    expect(findings).toContain(`sendCampaign (POST /campaigns/{campaign_id}/actions/send): ${source} names it postCampaignsIdActionsSend`);
    expect(findings.filter((f) => f.includes("names it"))).toHaveLength(4);
  });

  it("finds a campaign setting Mailchimp does not send, a checklist item type it does not have and a path it does not serve", () => {
    const { doc, paths } = editable("mailchimp-send-review", "mailchimp");
    // The subject read as settings.subject (Mailchimp's field is subject_line).
    (doc.steps.find((s) => s.id === "load")!.do!.output as Record<string, unknown>).subject_line = { var: "responses.campaign.settings.subject" };
    const checklist = paths["/campaigns/{campaign_id}/send-checklist"]!.get as unknown as { responses: Record<string, { content: Record<string, { schema: { properties: { items: { items: { properties: { type: { enum: string[] } } } } } } }> }> };
    checklist.responses["200"]!.content["application/json"]!.schema.properties.items.items.properties.type.enum = ["success", "warning", "error", "info"];
    // The send action written without its /actions part.
    paths["/campaigns/{campaign_id}/send"] = paths["/campaigns/{campaign_id}/actions/send"]!;
    delete paths["/campaigns/{campaign_id}/actions/send"];
    const findings = checkEntry(doc, provider(bySource("mailchimp"))).findings;
    expect(findings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^step load: responses\.campaign\.settings\.subject reads subject, which mailchimp\/fern-marketing-api-docs .* does not declare there \(it has /),
        expect.stringMatching(/items\[\]\.type: enum values \["info"\] are not among mailchimp\/fern-marketing-api-docs/),
        `postCampaignsIdActionsSend (POST /campaigns/{campaign_id}/send): ${source} has no POST /campaigns/{campaign_id}/send`,
      ]),
    );
  });
});

describe("earthquake-site-check against the USGS event service's WADL", () => {
  const source = "usgs/earthquake-event-ws (src/lib/application.wadl)";

  it("finds a parameter the service does not take, an order it does not have and the operation's own name", () => {
    const { doc, paths } = editable("earthquake-site-check", "usgs");
    // minmagnitude written as minmag, orderby given a value the service does not list, and the old name.
    renameParameter(paths, "/fdsnws/event/1/query", "get", "minmagnitude", "minmag");
    const op = paths["/fdsnws/event/1/query"]!.get as unknown as { operationId: string; parameters: Array<{ name: string; schema: { enum?: string[] } }> };
    op.parameters.find((p) => p.name === "orderby")!.schema.enum = ["magnitude", "mag"];
    op.operationId = "queryEvents";
    doc.tools!.usgs!.exposes = ["queryEvents"];
    const findings = checkEntry(doc, provider(bySource("usgs-fdsn-event"))).findings;
    expect(findings).toEqual(
      expect.arrayContaining([
        `queryEvents (GET /fdsnws/event/1/query): ${source} names it query`,
        `queryEvents (GET /fdsnws/event/1/query): parameter minmag is not in ${source}`,
        expect.stringMatching(/^queryEvents \(GET \/fdsnws\/event\/1\/query\): parameter orderby: enum values \["mag"\] are not among usgs\/earthquake-event-ws/),
      ]),
    );
  });
});
