// `stepgate --list [<word>...]`: the bundled catalog grouped by domain, with
// what each entry needs. Words filter it: an entry is shown when every word
// is found in its domain, name, title, description, needs or features
// (`keyless`, `approve`, `oauth2`, ...). Nothing matching is exit 1.
// Each entry's facts come from the build-time index when it holds them for
// the stepfile as it is (src/cli/catalog-index.ts); any other entry is
// loaded, and the loader itself is only imported then.
import { catalogEntries, catalogRoot, type CatalogEntry } from "./catalog-entries.js";
import { builtCatalogIndex, indexedFacts, type CatalogIndex, type ListedFacts } from "./catalog-index.js";
import { closestNames } from "../format/closest-names.js";

interface Listed {
  entry: CatalogEntry;
  shown?: ListedFacts;
  invalid?: string;
}

/** Where the catalog is read from: the package's own, with the index its build wrote, unless given. */
export interface CatalogSource {
  root?: string;
  index?: CatalogIndex | undefined;
}

export async function listCatalog(words: readonly string[], out: (text: string) => void, err: (line: string) => void, from: CatalogSource = {}): Promise<number> {
  const root = from.root ?? catalogRoot();
  const entries = catalogEntries(root);
  if (entries.length === 0) {
    out("The catalog is empty.\n");
    return 0;
  }
  const index = "index" in from ? from.index : builtCatalogIndex();
  const listed = await Promise.all(entries.map((entry) => listedEntry(entry, indexedFacts(index, root, entry))));
  const wanted = words.map((w) => w.toLowerCase());
  const shown = listed.filter((l) => wanted.every((w) => haystack(l).includes(w)));
  if (shown.length === 0) {
    const domains = [...new Set(entries.map((e) => e.category))];
    const near = closestNames(wanted.join("-"), [...domains, ...entries.map((e) => e.name)]);
    const hint = near.length > 0 ? `; did you mean ${near.join(" or ")}?` : "";
    err(`stepgate: no catalog entry matches ${words.map((w) => JSON.stringify(w)).join(" ")}${hint} (domains: ${domains.join(", ")})`);
    return 1;
  }
  const lines: string[] = [];
  for (const domain of [...new Set(shown.map((l) => l.entry.category))]) {
    const inDomain = shown.filter((l) => l.entry.category === domain);
    lines.push(`${domain} (${inDomain.length})`);
    for (const l of inDomain) {
      if (!l.shown) {
        lines.push(`  ${l.entry.name}  INVALID: ${l.invalid}`);
        continue;
      }
      lines.push(`  ${l.entry.name}  ${l.shown.title ?? l.shown.description ?? ""}`, `      needs: ${l.shown.needs}`);
    }
  }
  const total = shown.length === listed.length ? `${listed.length} entries` : `${shown.length} of ${listed.length} entries`;
  out(`${lines.join("\n")}\n${total}; stepgate --list <domain or word> filters, stepgate --test <name> replays an entry's cases offline.\n`);
  return 0;
}

async function listedEntry(entry: CatalogEntry, indexed: ListedFacts | undefined): Promise<Listed> {
  if (indexed) return { entry, shown: indexed };
  const { loadListedFacts } = await import("./catalog-listed.js");
  try {
    return { entry, shown: await loadListedFacts(entry) };
  } catch (error) {
    return { entry, invalid: (error as Error).message.split("\n")[0] };
  }
}

function haystack(l: Listed): string {
  const { shown } = l;
  return [l.entry.category, l.entry.name, shown?.title, shown?.description, shown?.needs ?? "", ...(shown?.words ?? [])].join(" ").toLowerCase();
}
