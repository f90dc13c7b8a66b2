// The lend-books fixture (test/fixtures/contract/): a small library API
// described as real API documents are, and the four mistakes of issue 19,
// each made alone in it, with what the warning must say.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const LEND_BOOKS_FILE = fileURLToPath(new URL("../fixtures/contract/lend-books.stepfile.yaml", import.meta.url));
export const LEND_BOOKS = readFileSync(LEND_BOOKS_FILE, "utf8");

/** The fixture with one change: `from` (which must occur exactly once) replaced by `to`. */
export function mistake(from: string, to: string, text = LEND_BOOKS): string {
  const parts = text.split(from);
  if (parts.length !== 2) throw new Error(`"${from}" occurs ${parts.length - 1} times in the fixture, not once`);
  return parts.join(to);
}

export interface Mistake {
  name: string;
  text: string;
  /** The warning's path, and the text its line:column points at. */
  path: string;
  at: RegExp;
  /** What the warning must say, what to write instead included. */
  says: RegExp;
}

export const FOUR_MISTAKES: Mistake[] = [
  {
    name: "a wrong response field on an open object",
    text: mistake("results: [listBooks, books]", "results: [listBooks, items]"),
    path: 'steps[1].gates[0].predicate[">"][0].length.results[1]',
    at: /^items\]/,
    says: /"items": the response schema of listBooks declares no property items there \(the object is open.*\(it declares books, next\)/,
  },
  {
    name: "a missing required body field",
    text: mistake("              member: { var: inputs.member }\n", ""),
    path: "steps[2].do.calls[0].arguments.body",
    at: /^book: /,
    says: /body lacks member \(string, matching \^M-\[0-9\]\+\$\), which the operation's schema requires, so call loan \(createLoan\) is refused at run time \(CallArgumentsInvalid\); add member to body/,
  },
  {
    name: "a literal over a documented maximum",
    text: mistake("per_page: 50", "per_page: 250"),
    path: "steps[0].do.calls[0].arguments.per_page",
    at: /^250,/,
    says: /per_page = 250 is over the documented maximum of 100, .*; write at most 100/,
  },
  {
    name: "a placeholder in an approve message",
    text: mistake("Lend this book? The member and the book are in the output below.", "Lend {{output.book}} to {{inputs.member}}?"),
    path: "steps[1].gates[2].approve.message",
    at: /^"Lend \{\{output\.book\}\}/,
    says: /\{\{output\.book\}\}, \{\{inputs\.member\}\} are shown as written: .*write the message without placeholders and let that output carry the values/,
  },
];

/** The text at line:column of `text`. */
export function pointedAt(text: string, at: { line?: number; column?: number }): string {
  return text.split("\n")[at.line! - 1]!.slice(at.column! - 1);
}
