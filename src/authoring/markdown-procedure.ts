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
  /** Rules stated outside any step (an intro or a "Rules" section). */
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

  const hasNumbered = tokens.some((t) => t.type === "list" && (t as Tokens.List).ordered);
  if (hasNumbered) {
    // Numbered items are the steps; everything else states general rules.
    for (const token of tokens) {
      if (token.type === "list" && (token as Tokens.List).ordered) {
        for (const item of (token as Tokens.List).items) procedure.steps.push(step(firstLine(item.text), item.text.trim()));
      } else procedure.generalRules.push(...rulesIn(textOf(token)));
    }
    return procedure;
  }
  // Otherwise each second-level heading is a step, its section the instructions.
  let current: { title: string; parts: string[] } | undefined;
  const close = () => {
    if (current) procedure.steps.push(step(current.title, current.parts.join("").trim() || current.title));
  };
  for (const token of tokens) {
    if (token.type === "heading" && (token as Tokens.Heading).depth <= 2) {
      close();
      current = (token as Tokens.Heading).depth === 2 ? { title: (token as Tokens.Heading).text.trim(), parts: [] } : undefined;
    } else if (current) current.parts.push(token.raw);
    else procedure.generalRules.push(...rulesIn(textOf(token)));
  }
  close();
  if (procedure.steps.length === 0 && body.trim() !== "") {
    // No structure to follow: one step holding everything, rules included.
    procedure.steps.push({ title: procedure.title ?? "procedure", text: body.trim(), rules: procedure.generalRules });
    procedure.generalRules = [];
  }
  return procedure;
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
