// MCP resources: each run's ledger and its readable timeline, for the
// session that owns the run only, and each catalog entry's README.
//
//   stepgate://runs/<run id>/ledger     the run's records, JSON Lines as written
//   stepgate://runs/<run id>/timeline   the run as text (src/ledger/timeline-text.ts), with its verify verdict
//   stepgate://catalog/<name>/README.md a catalog entry's README
//
// A run is listed for the session that started it, and a read of another
// session's run (or an unknown one) is "resource not found", so nobody learns
// that it exists. The session all 2026-07-28 callers share lists no runs (a
// run there belongs to whoever holds its id) but reads them by id. When the
// session's runs change, the client is told (notifications/resources/list_changed).
import { ResourceNotFoundError, type Server } from "@modelcontextprotocol/server";
import type { RunRegistry } from "../engine/registry.js";
import type { CatalogEntry } from "../authoring/options.js";
import { readExample } from "../authoring/examples.js";
import type { KeptLedgers } from "../ledger/kept.js";
import { buildTimeline } from "../ledger/timeline.js";
import { renderTimelineText } from "../ledger/timeline-text.js";
import { describeVerdict, verifyLedger } from "../ledger/verify.js";
import type { Session } from "../session.js";

export interface ResourceSources {
  registry: RunRegistry;
  ledgers: KeptLedgers;
  catalog: () => readonly CatalogEntry[];
}

const RUN_URI = /^stepgate:\/\/runs\/([^/]+)\/(ledger|timeline)$/;
const README_URI = /^stepgate:\/\/catalog\/([^/]+)\/README\.md$/;

/** Serves resources on `server` for `session`; the returned function announces a change in its runs, if any. */
export function serveResources(server: Server, session: Session, sources: ResourceSources): () => void {
  const { registry, ledgers } = sources;
  const ownRuns = () => registry.runsOf(session).filter((id) => ledgers.get(id));
  let listed = session.runsUnlisted ? "" : ownRuns().join(",");

  server.setRequestHandler("resources/list", () => {
    const runs = session.runsUnlisted ? [] : ownRuns().map((id) => ledgers.get(id)!);
    return {
      resources: [
        ...runs.flatMap((r) => [
          { uri: `stepgate://runs/${r.run}/ledger`, name: `${r.stepfile}-${r.run}.jsonl`, title: `Ledger of ${r.stepfile} run ${r.run}`, mimeType: "application/jsonl" },
          { uri: `stepgate://runs/${r.run}/timeline`, name: `${r.stepfile}-${r.run}.timeline.txt`, title: `Timeline of ${r.stepfile} run ${r.run}`, mimeType: "text/plain" },
        ]),
        ...sources.catalog().map((e) => ({
          uri: `stepgate://catalog/${e.name}/README.md`,
          name: `${e.name}/README.md`,
          title: `Catalog: ${e.name} (${e.category})`,
          mimeType: "text/markdown",
        })),
      ],
    };
  });
  server.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: [
      { uriTemplate: "stepgate://runs/{run}/ledger", name: "run-ledger", title: "A run's ledger (JSON Lines)", mimeType: "application/jsonl" },
      { uriTemplate: "stepgate://runs/{run}/timeline", name: "run-timeline", title: "A run's timeline, as text", mimeType: "text/plain" },
    ],
  }));
  server.setRequestHandler("resources/read", async (request) => {
    const uri = request.params.uri;
    const run = RUN_URI.exec(uri);
    if (run) {
      const id = decodeURIComponent(run[1]!);
      const kept = registry.runsOf(session).includes(id) ? ledgers.get(id) : undefined;
      if (!kept) throw new ResourceNotFoundError(uri);
      const text = kept.lines.map((l) => `${l}\n`).join("");
      if (run[2] === "ledger") return { contents: [{ uri, mimeType: "application/jsonl", text }] };
      return { contents: [{ uri, mimeType: "text/plain", text: renderTimelineText(buildTimeline(text), describeVerdict(verifyLedger(text))) }] };
    }
    const readme = README_URI.exec(uri);
    const example = readme ? await readExample(sources.catalog(), decodeURIComponent(readme[1]!)) : undefined;
    if (!example?.readme) throw new ResourceNotFoundError(uri);
    return { contents: [{ uri, mimeType: "text/markdown", text: example.readme }] };
  });

  return () => {
    if (session.runsUnlisted) return;
    const now = ownRuns().join(",");
    if (now === listed) return;
    listed = now;
    void server.sendResourceListChanged().catch(() => undefined);
  };
}
