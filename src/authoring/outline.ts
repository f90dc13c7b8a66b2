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

/** `schemaUrl`: the file: URL of the schema the running Stepgate ships, for the editor line. */
export function outline(markdown: string, schemaUrl?: string): Outline {
  const procedure = readProcedure(markdown);
  const doc = skeleton(procedure);
  const yaml = new Document(doc);
  yaml.commentBefore = header(schemaUrl);
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
