// stepgate_outline: a procedure in markdown -> a skeleton stepfile (YAML).
// Deterministic and model-free: it keeps the author's words as instructions
// and gate messages, and leaves a "TODO:" string wherever only the author can
// decide (inputs, what each step submits, how each rule is checked), which
// stepgate_validate then lists with their paths. A sentence asking a person
// to approve, sign off or confirm becomes an approve gate, the one gate that
// asks a person. The file starts with the yaml-language-server line, so an
// editor checks it against the schema as the author fills it in.
import { Document } from "yaml";
import { parseSource } from "../format/source.js";
import { asksApproval, readProcedure, sentencesIn, type Procedure } from "./markdown-procedure.js";
import { todoMarkers, type TodoMarker } from "./todo-markers.js";

export interface Outline {
  stepfile: string;
  steps: number;
  rules: number;
  /** Approve gates made from sentences asking a person to approve, sign off or confirm. */
  approvals: number;
  todos: TodoMarker[];
}

/** Where an editor finds the schema: relative to the stepfile, in the project that installed stepgate (docs/stepfile.md, "Editors"). */
export const SCHEMA_LINE = " yaml-language-server: $schema=./node_modules/stepgate/schema/stepfile.schema.json";

const HEADER = [
  SCHEMA_LINE,
  " Skeleton from stepgate_outline. Replace every TODO: marker, then check it with stepgate_validate.",
  " The line above lets an editor check the file as you type; its path is relative to this file.",
].join("\n");

/**
 * The largest procedure outlined, in bytes of markdown and in steps. The
 * work runs on the server's one event loop, so every other session waits
 * for it: a 20,000-item procedure held them all for about 27 s (issue 29).
 * A procedure past either bound is refused with what to do instead; a
 * stepfile of 200 steps is already far beyond what one person reviews.
 */
export const OUTLINE_LIMITS = { markdownBytes: 256 * 1024, steps: 200 } as const;

/** The reason a procedure is too large to outline, or undefined when it is not. */
export function outlineRefusal(markdown: string, procedure?: Procedure): string | undefined {
  const bytes = Buffer.byteLength(markdown);
  if (bytes > OUTLINE_LIMITS.markdownBytes) return `the markdown is ${bytes} bytes; stepgate_outline takes at most ${OUTLINE_LIMITS.markdownBytes}: outline the procedure in parts`;
  if (procedure && procedure.steps.length > OUTLINE_LIMITS.steps) return `the procedure has ${procedure.steps.length} steps; stepgate_outline makes at most ${OUTLINE_LIMITS.steps}: outline it in parts, or group items under second-level headings`;
  return undefined;
}

/** Thrown by outline() for a procedure past OUTLINE_LIMITS. */
export class OutlineTooLarge extends Error {}

export function outline(markdown: string): Outline {
  const early = outlineRefusal(markdown);
  if (early) throw new OutlineTooLarge(early);
  const procedure = readProcedure(markdown);
  const late = outlineRefusal(markdown, procedure);
  if (late) throw new OutlineTooLarge(late);
  const doc = skeleton(procedure);
  const yaml = new Document(doc);
  yaml.commentBefore = HEADER;
  const stepfile = yaml.toString({ lineWidth: 0 });
  const parsed = parseSource(stepfile);
  return {
    stepfile,
    steps: doc.steps.length,
    rules: new Set([...procedure.steps.flatMap((s) => s.rules), ...procedure.generalRules]).size,
    approvals: doc.steps.flatMap((s) => ("gates" in s ? s.gates : [])).filter((g) => "approve" in g).length,
    todos: "issues" in parsed ? [] : todoMarkers(parsed),
  };
}

type SkeletonGate = { id: string; message: string; predicate: string } | { id: string; approve: { message: string } };

interface AgentStep {
  id: string;
  instructions: string;
  produces: Record<string, unknown>;
  gates: SkeletonGate[];
}

interface MechanicalStep {
  id: string;
  do: { calls: Array<{ id: string; operation: string; arguments: Record<string, unknown> }>; output: unknown };
  produces: Record<string, unknown>;
}

type SkeletonStep = AgentStep | MechanicalStep;

/**
 * A first step that only gets data (fetch, download, list, look up...) before
 * later steps work on it is better done by Stepgate itself: a mechanical step
 * calling the API, so the agent starts from data no one could have made up.
 */
const FETCHES = /^\W*(?:first,?\s+)?(?:fetch|get|retrieve|download|pull|list|query|look\s+up|export)\b/i;
/** ...from a system, not from what the agent was given. */
const FROM_A_SYSTEM = /\b(?:api|endpoint|service|database|server|system|tracker|crm|erp)s?\b/i;

/** The tools: stub a fetching step calls through, for the author to fill in from stepgate_inspect_api. */
const TOOLS_STUB = {
  api: {
    openapi: {
      server: "TODO: the API's base URL (stepgate_inspect_api lists the document's servers)",
      url: "TODO: the OpenAPI document's URL, or replace url and sha256 with document: <the document>",
      sha256: "TODO: the sha256 stepgate_inspect_api gives for the document",
    },
    exposes: ["TODO: the operationId that fetches the data"],
  },
};

function fetchingStep(id: string, text: string): MechanicalStep {
  return {
    id,
    do: {
      calls: [{ id: "fetch", operation: "TODO: the operationId that fetches the data", arguments: {} }],
      output: { data: { var: "responses.fetch" } },
    },
    produces: {
      type: "object",
      description: `TODO: Stepgate runs this step itself: it calls the API and passes the response on as steps.${id}.data. From the procedure: ${text}`,
      properties: { data: {} },
    },
  };
}

function skeleton(p: Procedure) {
  const stepIds = new Unique();
  const steps: SkeletonStep[] = p.steps.map((s, i) => {
    const last = i === p.steps.length - 1;
    // Agreement a person must give is asked by an approve gate, not checked by a predicate.
    const approvals = [...sentencesIn(s.text), ...(last ? p.generalRules : [])].filter(asksApproval);
    const rules = s.rules.filter((r) => !asksApproval(r));
    const general = last ? p.generalRules.filter((r) => !rules.includes(r) && !asksApproval(r)) : [];
    const gateIds = new Unique();
    const gates: SkeletonGate[] = [
      ...rules.map((rule) => ({ id: gateIds.take(slug(rule, "rule")), message: rule, predicate: "TODO: an expression that is true only when the output keeps this rule" })),
      ...general.map((rule) => ({
        id: gateIds.take(slug(rule, "rule")),
        message: rule,
        predicate: "TODO: this rule is stated for the whole procedure; move this gate to the step whose output shows it, and write an expression that is true only when the output keeps it",
      })),
    ];
    const id = stepIds.take(slug(s.title, "step"));
    if (i === 0 && p.steps.length > 1 && rules.length === 0 && general.length === 0 && approvals.length === 0 && (FETCHES.test(s.title) || FETCHES.test(s.text)) && FROM_A_SYSTEM.test(`${s.title} ${s.text}`)) return fetchingStep(id, s.text);
    if (gates.length === 0) gates.push({ id: gateIds.take("check"), message: "TODO: what a good output of this step must show", predicate: "TODO: an expression over output (and calls) that is true only for a good output" });
    // Asked after every other gate passed, with the submitted output shown beside the message.
    if (approvals.length > 0) gates.push({ id: gateIds.take("approved"), approve: { message: approvalMessage(approvals) } });
    return {
      id,
      instructions: s.text,
      produces: { type: "object", description: "TODO: the JSON Schema of what this step submits: the properties its gates check", properties: {} },
      gates,
    };
  });
  if (steps.length === 0) {
    steps.push({
      id: "step",
      instructions: "TODO: what the agent does",
      produces: { type: "object", description: "TODO: the JSON Schema of what this step submits", properties: {} },
      gates: [{ id: "check", message: "TODO: what a good output must show", predicate: "TODO: an expression that is true only for a good output" }],
    });
  }
  const name = p.name ?? p.title;
  return {
    stepgate: "1",
    id: slug(name ?? "procedure", "procedure", 64),
    ...(p.title ?? p.name ? { title: p.title ?? p.name } : {}),
    description: p.description ?? "TODO: one sentence saying what this procedure does (the MCP tool description)",
    inputs: { type: "object", description: "TODO: the values a caller gives when starting a run; steps read them as {{inputs.<name>}}", properties: {} },
    ...(steps.some((s) => "do" in s) ? { tools: TOOLS_STUB } : {}),
    steps,
  };
}

/** What the person is asked: the procedure's own words (placeholders are not filled there, so none are added). */
function approvalMessage(sentences: readonly string[]): string {
  return `The procedure says: ${sentences.join(" ")} Approve the output below?`;
}

const DANGLING = new Set(["a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "with", "by", "at", "from", "must", "be", "is", "are", "that", "than", "its", "each", "every"]);

/** An identifier (`^[a-z][a-z0-9-]*$`) from the first words of a text. */
export function slug(text: string, fallback: string, max = 40): string {
  const words = text
    .normalize("NFKD")
    // Accents come apart from their letters under NFKD; dropping the marks keeps the letters.
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
  // Whole words only, as many as fit in max, without a dangling "the" or "and" at the end.
  const kept: string[] = [];
  for (const word of words.slice(0, 6)) {
    if ([...kept, word].join("-").length > max) break;
    kept.push(word);
  }
  while (kept.length > 1 && DANGLING.has(kept[kept.length - 1]!)) kept.pop();
  let id = kept.length > 0 ? kept.join("-") : (words[0] ?? "").slice(0, max);
  if (!/^[a-z]/.test(id)) id = id ? `${fallback}-${id}` : fallback;
  return id.slice(0, max).replace(/-$/, "");
}

/** Keeps ids unique within a file (steps) or a step (gates): a repeat gets -2, -3, ... */
class Unique {
  private readonly seen = new Set<string>();
  take(id: string): string {
    let candidate = id;
    for (let n = 2; this.seen.has(candidate); n++) candidate = `${id}-${n}`;
    this.seen.add(candidate);
    return candidate;
  }
}

export function outlineText(o: Outline): string {
  return [
    `A skeleton with ${o.steps} ${o.steps === 1 ? "step" : "steps"} and ${o.rules} ${o.rules === 1 ? "rule" : "rules"} to write as gates; ${o.todos.length} TODO: markers to replace.`,
    ...(o.approvals > 0 ? [`${o.approvals} approve ${o.approvals === 1 ? "gate asks" : "gates ask"} a person where the procedure says one must approve, sign off or confirm (the client must support elicitation).`] : []),
    "Fill it in, then check it with stepgate_validate.",
    "",
    o.stepfile.trimEnd(),
  ].join("\n");
}
