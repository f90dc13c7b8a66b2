// The contract every catalog entry's README.md keeps (awesome-stepfiles/
// CONTRIBUTING.md): these second-level headings in this order, and under
// "Try it" a `stepgate --test` command in an sh block followed by its output
// in a text block. The catalog check and `npm run catalog:index` share it.

export const README_SECTIONS = [
  "What it does",
  "When to use it",
  "What it needs",
  "Example inputs",
  "What the gates guarantee",
  "What they cannot catch",
  "API shapes",
  "Try it",
] as const;

/** The README's `##` headings, in order. */
export function readmeHeadings(readme: string): string[] {
  return [...readme.matchAll(/^## (.+?)\s*$/gm)].map((m) => m[1]!);
}

/** Which section is missing, out of order or unexpected; empty when the README follows the contract. */
export function readmeSectionProblems(readme: string): string[] {
  const headings = readmeHeadings(readme);
  if (JSON.stringify(headings) === JSON.stringify(README_SECTIONS)) return [];
  return [`expected the ## headings ${README_SECTIONS.join(" | ")}, found ${headings.join(" | ") || "none"}`];
}

export interface TryIt {
  /** The command's arguments after `npx stepgate`. */
  args: string[];
  /** The output block as written. */
  output: string;
  /** Where the output block's text starts and ends in the README. */
  span: [number, number];
}

const TRY_IT = /^## Try it\s*\n[\s\S]*?```sh\n(npx stepgate [^\n]+)\n```\s*\n```text\n([\s\S]*?)```/m;

/** The Try it command and its shown output; undefined when the section lacks them. */
export function readTryIt(readme: string): TryIt | undefined {
  const m = TRY_IT.exec(readme);
  if (!m) return undefined;
  const output = m[2]!;
  const end = m.index + m[0].length - 3;
  return { args: m[1]!.trim().split(/\s+/).slice(2), output, span: [end - output.length, end] };
}

/** The README with the Try it output block replaced. */
export function withTryItOutput(readme: string, output: string): string {
  const tryIt = readTryIt(readme);
  if (!tryIt) return readme;
  return readme.slice(0, tryIt.span[0]) + output + readme.slice(tryIt.span[1]);
}

/** Command output as a README shows it: paths relative to the repository. */
export function portableOutput(stdout: string, repoRoot: string): string {
  return stdout.replaceAll(`${repoRoot}/`, "");
}
