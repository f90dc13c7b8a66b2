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
import { OUTLINE_LIMITS } from "./input-limits.js";

export interface Outline {
  stepfile: string;
  steps: number;
  rules: number;
  /** Approve gates made from sentences asking a person to approve, sign off or confirm. */
  approvals: number;
  todos: TodoMarker[];
}

/**
 * Where an editor finds the schema: the file the Stepgate that writes the
 * outline ships (`schemaUrl`, a file: URL the server passes in), so the line
 * is right however it was installed (npx, a global or project install, a
 * clone). Without one, the header only says how to add the line.
 */
export function schemaLine(schemaUrl: string): string {
  return ` yaml-language-server: $schema=${schemaUrl}`;
}

function header(schemaUrl: string | undefined): string {
  const tail = " Skeleton from stepgate_outline. Replace every TODO: marker, then check it with stepgate_validate.";
  if (!schemaUrl) {
    return [tail, " An editor checks the file as you type once its first line names the schema: # yaml-language-server: $schema=<path to stepgate's schema/stepfile.schema.json>."].join("\n");
  }
  return [
    schemaLine(schemaUrl),
    tail,
    " The line above lets an editor check the file as you type: it names the schema of the Stepgate that wrote this outline. In a project that installs stepgate with npm, ./node_modules/stepgate/schema/stepfile.schema.json (relative to this file) works on every machine.",
  ].join("\n");
}


/** The reason a procedure is too large to outline, or undefined when it is not. */
export function outlineRefusal(markdown: string, procedure?: Procedure): string | undefined {
  const bytes = Buffer.byteLength(markdown);
  if (bytes > OUTLINE_LIMITS.markdownBytes) return `the markdown is ${bytes} bytes; stepgate_outline takes at most ${OUTLINE_LIMITS.markdownBytes}: outline the procedure in parts`;
  if (procedure && procedure.steps.length > OUTLINE_LIMITS.steps) return `the procedure has ${procedure.steps.length} steps; stepgate_outline makes at most ${OUTLINE_LIMITS.steps}: outline it in parts, or group items under second-level headings`;
  return undefined;
}

/** Thrown by outline() for a procedure past OUTLINE_LIMITS. */
export class OutlineTooLarge extends Error {}

/** `schemaUrl`: the file: URL of the schema the running Stepgate ships, for the editor line. */
export function outline(markdown: string, schemaUrl?: string): Outline {
  const early = outlineRefusal(markdown);
  if (early) throw new OutlineTooLarge(early);
  const procedure = readProcedure(markdown);
  const late = outlineRefusal(markdown, procedure);
  if (late) throw new OutlineTooLarge(late);
  const doc = skeleton(procedure);
  const yaml = new Document(doc);
  yaml.commentBefore = header(schemaUrl);
  const stepfile = yaml.toString({ lineWidth: 0 });
  const parsed = parseSource(stepfile);
  return {
    stepfile,
    steps: doc.steps.length,
    rules: new Set([...procedure.steps.flatMap((s) => s.rules), ...procedure.generalRules]).size,
    approvals: doc.steps.flatMap((s) => (s.gates ?? [])).filter((g) => "approve" in g).length,
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
  gates?: SkeletonGate[];
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

/**
 * A step that changes something in a system (creates, refunds, sends,
 * deletes...), or that the procedure says Stepgate must do and not the
 * agent. Given to the agent as a tool, the write could be called with any
 * arguments, any number of times, before any gate ran, an approve gate
 * included; so it becomes a mechanical step after the step whose output a
 * person approves, its arguments computed from that output.
 */
const WRITES = /^\W*(?:then,?\s+|finally,?\s+)?(?:create|refund|issue|send|post|publish|delete|remove|update|pay|transfer|charge|cancel|book|email|notify|merge|deploy|file)\b/i;
/** A rule that only says who makes the change: kept by making it a mechanical step, not a gate to write. */
const BY_STEPGATE = /\bby\s+stepgate\b|\b(?:never|not)\s+(?:be\s+\w+\s+)?by\s+the\s+(?:agent|model|assistant)\b/i;

const FETCH_OPERATION = "TODO: the operationId that fetches the data";
const WRITE_OPERATION = "TODO: the operationId that makes this change (a POST, PUT, PATCH or DELETE)";

/** The tools: stub a mechanical step calls through, for the author to fill in from stepgate_inspect_api. */
function toolsStub(operations: readonly string[]) {
  return {
    api: {
      openapi: {
        server: "TODO: the API's base URL (stepgate_inspect_api lists the document's servers)",
        url: "TODO: the OpenAPI document's URL, or replace url and sha256 with document: <the document>",
        sha256: "TODO: the sha256 stepgate_inspect_api gives for the document",
      },
      exposes: [...operations],
    },
  };
}

function fetchingStep(id: string, text: string): MechanicalStep {
  return {
    id,
    do: {
      calls: [{ id: "fetch", operation: FETCH_OPERATION, arguments: {} }],
      output: { data: { var: "responses.fetch" } },
    },
    produces: {
      type: "object",
      description: `TODO: Stepgate runs this step itself: it calls the API and passes the response on as steps.${id}.data. From the procedure: ${text}`,
      properties: { data: {} },
    },
  };
}

function writingStep(id: string, text: string, after: string | undefined, gates: SkeletonGate[]): MechanicalStep {
  const from = after ? `{ var: steps.${after}.<field> }` : "{ var: inputs.<name> }";
  return {
    id,
    do: {
      calls: [{ id: "write", operation: WRITE_OPERATION, arguments: { "TODO: argument": `TODO: each argument computed from ${after ? `the approved output of step ${after}` : "the inputs"}, as ${from}` } }],
      output: { result: { var: "responses.write" } },
    },
    produces: {
      type: "object",
      description: `TODO: Stepgate makes this change itself${after ? `, only once step ${after} has passed its gates (a person's approval included)` : ""}, so the agent never calls the operation. From the procedure: ${text}`,
      properties: { result: {} },
    },
    ...(gates.length > 0 ? { gates } : {}),
  };
}

/** Whether procedure step `i` is a write (see WRITES): never the first, which has no output to approve before it. */
function isWrite(p: Procedure, i: number): boolean {
  const s = p.steps[i]!;
  return i > 0 && (WRITES.test(s.title) || WRITES.test(s.text) || s.rules.some((r) => BY_STEPGATE.test(r)));
}

function skeleton(p: Procedure) {
  const stepIds = new Unique();
  const writes = p.steps.map((_, i) => isWrite(p, i));
  // Agreement a person must give is asked by an approve gate, not checked by a predicate; one a write
  // step asks for is asked on the agent step before it, whose output the write is computed from.
  const approvalsOf = p.steps.map((s, i) => [...sentencesIn(s.text), ...(i === p.steps.length - 1 ? p.generalRules : [])].filter(asksApproval));
  const approver = (i: number): number => {
    for (let j = i; j >= 0; j--) if (!writes[j]) return j;
    return i;
  };
  const asked = p.steps.map(() => [] as string[]);
  approvalsOf.forEach((sentences, i) => asked[writes[i] ? approver(i) : i]!.push(...sentences));
  const ids: string[] = [];
  const steps: SkeletonStep[] = p.steps.map((s, i) => {
    const last = i === p.steps.length - 1;
    const approvals = asked[i]!;
    const rules = s.rules.filter((r) => !asksApproval(r) && !(writes[i] && BY_STEPGATE.test(r)));
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
    ids.push(id);
    if (writes[i]) {
      const before = approver(i);
      return writingStep(id, s.text, before < i ? ids[before] : undefined, gates);
    }
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
    ...(steps.some((s) => "do" in s) ? { tools: toolsStub(operationsOf(steps)) } : {}),
    steps,
  };
}

/** The TODO operations the skeleton's mechanical steps call, each once. */
function operationsOf(steps: readonly SkeletonStep[]): string[] {
  return [...new Set(steps.flatMap((s) => ("do" in s ? s.do.calls.map((c) => c.operation) : [])))];
}

/** What the person is asked: the procedure's own words (placeholders are not filled there, so none are added). */
function approvalMessage(sentences: readonly string[]): string {
  return `The procedure says: ${sentences.join(" ")} Approve the output below?`;
}

const DANGLING = new Set(["a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "with", "by", "at", "from", "must", "be", "is", "are", "that", "than", "its", "each", "every"]);

/**
 * An identifier (`^[a-z][a-z0-9-]*$`) from the first words of a text. A word
 * is what spaces separate, so a compound such as `out-of-stock` or
 * `out_of_stock` is kept or left out whole, never cut to `out`.
 */
export function slug(text: string, fallback: string, max = 40): string {
  const words = text
    .normalize("NFKD")
    // Accents come apart from their letters under NFKD; dropping the marks keeps the letters.
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, ""))
    .filter(Boolean);
  if (words.length === 0) return fallback;
  if (!/^[a-z]/.test(words[0]!)) words.unshift(fallback);
  // Whole words only, as many as fit in max, without a dangling "the" or "and" at the end.
  const kept: string[] = [];
  for (const word of words.slice(0, 6)) {
    if ([...kept, word].join("-").length > max) break;
    kept.push(word);
  }
  while (kept.length > 1 && DANGLING.has(kept[kept.length - 1]!)) kept.pop();
  if (kept.length > 0) return kept.join("-");
  // A first word longer than max: cut at its last hyphen that fits, else at max.
  const first = words[0]!.slice(0, max + 1);
  const cut = first.lastIndexOf("-");
  return (cut > 0 ? first.slice(0, cut) : first.slice(0, max)).replace(/-+$/, "");
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
