// stepgate_examples: the bundled catalog, for an agent to learn the format
// from working stepfiles: the list, or one entry's stepfile text and README.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { closestNames } from "../format/closest-names.js";
import { environmentNeeds, needsApproval, needsText } from "./needs.js";
import type { CatalogEntry, KnownExample } from "./options.js";

export interface ExampleSummary {
  name: string;
  category: string;
  title: string;
  /** Environment variables it needs; empty when keyless. */
  needs: string[];
  /** It has an approve gate: a person answers through the client. */
  approval: boolean;
  /** Set when the bundled file does not load (a packaging defect worth seeing). */
  invalid?: string;
}

export interface Example {
  name: string;
  category: string;
  stepfile: string;
  /** The stepfile's language, for the fence around its text. */
  format: "yaml" | "json";
  readme: string | null;
}

/**
 * Each entry from what `known` says of it (the build's index) when it can,
 * else by loading it. Loads take turns with other work: each is one
 * synchronous parse and compile, so the event loop gets a turn between them
 * rather than waiting for the whole catalog.
 */
export async function listExamples(catalog: readonly CatalogEntry[], known?: (entry: CatalogEntry) => Promise<KnownExample | undefined>): Promise<ExampleSummary[]> {
  const indexed = await Promise.all(catalog.map((entry) => known?.(entry)));
  const out: ExampleSummary[] = [];
  for (const [i, entry] of catalog.entries()) {
    const facts = indexed[i];
    if (facts) {
      out.push({ name: entry.name, category: entry.category, title: facts.title, needs: facts.needs, approval: facts.approval });
      continue;
    }
    await new Promise<void>((yieldTurn) => setImmediate(yieldTurn));
    try {
      // Only for an entry the index cannot answer for (edited, or no build): the loader is not needed otherwise.
      const { loadStepfileFile } = await import("../loader/load.js");
      const { doc } = await loadStepfileFile(entry.file, entry.name);
      out.push({ name: entry.name, category: entry.category, title: doc.title ?? doc.description ?? "", needs: environmentNeeds(doc), approval: needsApproval(doc) });
    } catch (error) {
      out.push({ name: entry.name, category: entry.category, title: "", needs: [], approval: false, invalid: (error as Error).message.replace(/\n\s*/g, " ") });
    }
  }
  return out;
}

/** The catalog names nearest one it lacks, for "did you mean". */
export function nearExamples(catalog: readonly CatalogEntry[], name: string): string[] {
  return closestNames(name, catalog.map((e) => e.name));
}

/** One entry's text and README; undefined for a name the catalog lacks. */
export async function readExample(catalog: readonly CatalogEntry[], name: string): Promise<Example | undefined> {
  const entry = catalog.find((e) => e.name === name);
  if (!entry) return undefined;
  const stepfile = await readFile(entry.file, "utf8");
  const readme = await readFile(join(dirname(entry.file), "README.md"), "utf8").catch(() => null);
  return { name: entry.name, category: entry.category, stepfile, format: /\.json$/i.test(entry.file) ? "json" : "yaml", readme };
}

export function examplesListText(list: readonly ExampleSummary[]): string {
  if (list.length === 0) return "The catalog is empty.";
  const lines = ["The bundled catalog (call stepgate_examples with a name to read one):"];
  for (const e of list) {
    lines.push(`- ${e.name} (${e.category}): ${e.invalid ? `INVALID: ${e.invalid}` : e.title}`);
    if (!e.invalid) lines.push(`  needs: ${needsText(e.needs, e.approval)}`);
  }
  return lines.join("\n");
}

export function exampleText(e: Example): string {
  return [`# ${e.name} (${e.category})`, "", "## Stepfile", `\`\`\`${e.format}`, e.stepfile.trimEnd(), "```", "", "## README", e.readme?.trimEnd() ?? "(none)"].join("\n");
}
