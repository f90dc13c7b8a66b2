// Reads a procedure written as markdown (a SKILL.md or an SOP) into its
// parts: frontmatter, title, steps and the rules stated in each. The
// markdown itself is tokenised by `marked`, so code fences, setext headings
// and nested lists are handled as CommonMark says rather than by line tricks.
import { marked, type Token, type Tokens } from "marked";
import { parse as parseYaml } from "yaml";

export interface ProcedureStep {
  title: string;
  text: string;
  rules: string[];
}

export interface Procedure {
  name?: string;
  description?: string;
  title?: string;
  steps: ProcedureStep[];
  /** Rules stated outside any step (an intro, or the text around a section's numbered items). */
  generalRules: string[];
}

const FRONTMATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export function readProcedure(markdown: string): Procedure {
  const procedure: Procedure = { steps: [], generalRules: [] };
  let body = markdown;
  const front = FRONTMATTER.exec(markdown);
  if (front) {
    body = markdown.slice(front[0].length);
    const meta = frontmatter(front[1]!);
    if (typeof meta.name === "string" && meta.name.trim()) procedure.name = meta.name.trim();
    if (typeof meta.description === "string" && meta.description.trim()) procedure.description = meta.description.trim();
  }
  const tokens = marked.lexer(body);
  const h1 = tokens.find((t): t is Tokens.Heading => t.type === "heading" && t.depth === 1);
  if (h1) procedure.title = h1.text.trim();

  // The document is read as sections, each opened by a second-level heading
  // (a first-level one closes the section without opening another). Each
  // section is judged on its own, so a prose section is never lost because
  // another section happens to number its steps.
  let section: { title: string; tokens: Token[] } | undefined;
  const close = () => {
    if (section) readSection(procedure, section.title, section.tokens);
    section = undefined;
  };
  for (const token of tokens) {
    if (token.type === "heading" && (token as Tokens.Heading).depth <= 2) {
      close();
      if ((token as Tokens.Heading).depth === 2) section = { title: (token as Tokens.Heading).text.trim(), tokens: [] };
    } else if (section) section.tokens.push(token);
    else readNumbered(procedure, [token]);
  }
  close();
  if (procedure.steps.length === 0 && body.trim() !== "") {
    // No structure to follow: one step holding everything, rules included.
    procedure.steps.push({ title: procedure.title ?? "procedure", text: body.trim(), rules: procedure.generalRules });
    procedure.generalRules = [];
  }
  return procedure;
}

/**
 * A section with numbered items contributes one step per item; its other
 * text is context, whose rules are general. A section without any is a step
 * itself: its prose the instructions, its rules the step's.
 */
function readSection(procedure: Procedure, title: string, tokens: Token[]): void {
  if (tokens.some(isNumbered)) return readNumbered(procedure, tokens);
  const text = tokens.map((t) => t.raw).join("").trim();
  // Code shows commands, not rules, so only the prose around it states them.
  procedure.steps.push({ title, text: text || title, rules: rulesIn(tokens.map(textOf).join("")) });
}

/** Numbered items become steps; everything else in these tokens states general rules. */
function readNumbered(procedure: Procedure, tokens: Token[]): void {
  for (const token of tokens) {
    if (isNumbered(token)) {
      for (const item of token.items) procedure.steps.push(step(firstLine(item.text), item.text.trim()));
    } else procedure.generalRules.push(...rulesIn(textOf(token)));
  }
}

function isNumbered(token: Token): token is Tokens.List {
  return token.type === "list" && (token as Tokens.List).ordered;
}

function step(title: string, text: string): ProcedureStep {
  return { title, text, rules: rulesIn(text) };
}

function frontmatter(text: string): Record<string, unknown> {
  try {
    const value: unknown = parseYaml(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    // Broken frontmatter is the author's to fix; the steps can still be read.
    return {};
  }
}

function textOf(token: Token): string {
  // Code shows commands, not rules the procedure states.
  return token.type === "code" ? "" : token.raw;
}

/** A step's title: its first sentence, so ids name the action rather than a rule that follows it. */
function firstLine(text: string): string {
  return text.trim().split("\n")[0]!.trim().split(/(?<=[.!?])\s/)[0]!;
}

// Capitalised keywords are how SKILL.md files and SOPs (after RFC 2119) mark
// rules; a sentence opening with "Never" or "Always" is an imperative rule too.
const RULE = /\b(?:MUST|NEVER|ALWAYS|SHALL)\b|^(?:Never|Always)\b/;

/** The sentences of a text that state a rule, without markdown list markers or emphasis. */
export function rulesIn(text: string): string[] {
  const rules: string[] = [];
  for (const line of text.split("\n")) {
    const plain = line
      .replace(/^\s*(?:[-*+]|\d+[.)]|>|#+)\s+/, "")
      .replace(/(\*\*|__|\*|_|`)(.+?)\1/g, "$2")
      .trim();
    for (const sentence of plain.split(/(?<=[.!?])\s+(?=[A-Z])/)) {
      const s = sentence.trim();
      if (s && RULE.test(s) && !rules.includes(s)) rules.push(s);
    }
  }
  return rules;
}
