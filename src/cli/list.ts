// `stepgate --list [<word>...]`: the bundled catalog grouped by domain, with
// what each entry needs. Words filter it: an entry is shown when every word
// is found in its domain, name, title, description, needs or features
// (`keyless`, `approve`, `oauth2`, ...). Nothing matching is exit 1.
import type { StepfileDocument } from "../format/types.js";
import { loadStepfileFile } from "../loader/load.js";
import { catalogEntries, type CatalogEntry } from "./catalog.js";
import { entryFacts, featureWords, needsText, type EntryFacts } from "./catalog-facts.js";
import { closestNames } from "../format/closest-names.js";

interface Listed {
  entry: CatalogEntry;
  loaded?: { doc: StepfileDocument; facts: EntryFacts };
  invalid?: string;
}

export async function listCatalog(words: readonly string[], out: (text: string) => void, err: (line: string) => void): Promise<number> {
  const entries = catalogEntries();
  if (entries.length === 0) {
    out("The catalog is empty.\n");
    return 0;
  }
  const listed = await Promise.all(entries.map(listedEntry));
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
      if (!l.loaded) {
        lines.push(`  ${l.entry.name}  INVALID: ${l.invalid}`);
        continue;
      }
      const { doc, facts } = l.loaded;
      lines.push(`  ${l.entry.name}  ${doc.title ?? doc.description ?? ""}`, `      needs: ${needsText(facts)}`);
    }
  }
  const total = shown.length === listed.length ? `${listed.length} entries` : `${shown.length} of ${listed.length} entries`;
  out(`${lines.join("\n")}\n${total}; stepgate --list <domain or word> filters, stepgate --test <name> replays an entry's cases offline.\n`);
  return 0;
}

async function listedEntry(entry: CatalogEntry): Promise<Listed> {
  try {
    const { doc } = await loadStepfileFile(entry.file, entry.name);
    return { entry, loaded: { doc, facts: entryFacts(doc, entry.file) } };
  } catch (error) {
    return { entry, invalid: (error as Error).message.split("\n")[0] };
  }
}

function haystack(l: Listed): string {
  const { doc, facts } = l.loaded ?? {};
  return [l.entry.category, l.entry.name, doc?.title, doc?.description, facts ? needsText(facts) : "", ...(facts ? featureWords(facts) : [])]
    .join(" ")
    .toLowerCase();
}
