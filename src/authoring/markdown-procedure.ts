// Reads a procedure written as markdown (a SKILL.md or an SOP) into its
// parts: frontmatter, title, steps and the rules stated in each. The
// markdown itself is tokenised by `marked`, so code fences, setext headings
// and nested lists are handled as CommonMark says rather than by line tricks.
import { marked, type Token, type Tokens } from "marked";
import { parse as parseYaml } from "yaml";
import { flowTooDeep, MAX_DEPTH } from "../format/nesting.js";

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
  // Deep flow nesting aborts the process inside `yaml` (src/format/nesting.ts); such frontmatter is read as none.
  if (flowTooDeep(text, MAX_DEPTH)) return {};
  try {
    // logLevel "error": `yaml` prints nothing of its own (a served process's standard error may carry only ledger lines).
    const value: unknown = parseYaml(text, { logLevel: "error" });
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
  return sentencesIn(text).filter((s) => RULE.test(s));
}

/** The distinct sentences of a text, line by line, without markdown list markers or emphasis. */
export function sentencesIn(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split("\n")) {
    const plain = line
      .replace(/^\s*(?:[-*+]|\d+[.)]|>|#+)\s+/, "")
      .replace(/(\*\*|__|\*|_|`)(.+?)\1/g, "$2")
      .trim();
    for (const sentence of plain.split(/(?<=[.!?])\s+(?=[A-Z])/)) {
      const s = sentence.trim();
      if (s && !sentences.includes(s)) sentences.push(s);
    }
  }
  return sentences;
}

// "A manager must approve", "the customer signs off", "get the user to
// confirm": agreement only a person can give, which an approve gate asks for.
// Both a verb of agreeing and someone other than the agent must be named:
// "confirm the build passed" is the agent's own work.
const AGREES = /\b(?:approv(?:e|es|ed|al|ing)|sign(?:s|ed|ing)?[\s-]off|sign-off|confirm(?:s|ed|ation|ing)?)\b/i;
const PERSON = /\b(?:person|people|human|someone|somebody|manager|reviewer|approver|supervisor|lead|owner|operator|user|customer|client|admin|administrator|team|officer|director|editor|partner|counsel|accountant|finance|legal|hr)\b/i;

/** Whether a sentence asks a person to approve, sign off or confirm. */
export function asksApproval(sentence: string): boolean {
  return AGREES.test(sentence) && PERSON.test(sentence);
}
