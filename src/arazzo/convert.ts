// An Arazzo document as stepfiles, one per workflow (issue 30): each
// workflow converts, or is refused naming the workflow, the step and the
// construct, and the others still convert. Reading and validating the
// document is document.ts; sources are loaded once (sources.ts) and shared.
import { isObject, type JsonObject } from "../format/json-pointer.js";
import type { Issue } from "../errors.js";
import type { ArazzoDocument } from "./document.js";
import { inputsSchema } from "./inputs.js";
import { expression } from "./templates.js";
import { IdPool, kebab } from "./names.js";
import { refuse, WorkflowRefused, type Refusal } from "./refusals.js";
import { credentialFor, type Credential } from "./security.js";
import { loadSources, type Loaded, type SourceOptions, type SourceState } from "./sources.js";
import { convertSteps, type Build } from "./steps.js";
import { arazzoCredentialParameter } from "../loader/rules/arazzo-credential-parameter.js";
import type { FoundOperation } from "./operations.js";

export interface ConvertedWorkflow {
  workflowId: string;
  /** Index in the document's workflows, for messages. */
  index: number;
  stepfile: JsonObject;
}

export interface Conversion {
  converted: ConvertedWorkflow[];
  refused: (Refusal & { index: number })[];
  notes: Issue[];
  /** The local files the conversion read beside the document (source descriptions, Arazzo sources and theirs): what --watch watches too. */
  files: string[];
}

export interface ConvertOptions extends SourceOptions {
  /** Convert only this workflow (`--workflow`); the others are neither converted nor refused. */
  workflowId?: string;
}

export async function convertDocument(doc: ArazzoDocument, options: ConvertOptions): Promise<Conversion> {
  const workflows = Array.isArray(doc.data.workflows) ? (doc.data.workflows as JsonObject[]) : [];
  const chosen = workflows.map((w, index) => ({ w, index })).filter(({ w }) => options.workflowId === undefined || w.workflowId === options.workflowId);
  if (options.workflowId !== undefined && chosen.length === 0) {
    throw new UnknownWorkflow(options.workflowId, workflows.map((w) => String(w.workflowId)));
  }
  const loaded: Loaded = new Map();
  const sources = await loadSources(doc.data.sourceDescriptions, options, loaded);
  const result: Conversion = { converted: [], refused: [], notes: [...doc.notes], files: [...loaded.keys()].filter((where) => !/^https?:\/\//i.test(where)) };
  const ids = new Map<string, string>();
  for (const { w, index } of chosen) {
    const workflowId = String(w.workflowId);
    try {
      const { stepfile, notes } = convertWorkflow(w, workflowId, doc.data, sources);
      const other = ids.get(stepfile.id as string);
      if (other !== undefined) refuse({ workflow: workflowId }, "workflowId", `it becomes the stepfile id ${String(stepfile.id)}, as workflow ${other} does`, "give the workflows ids that differ in more than case and punctuation");
      ids.set(stepfile.id as string, workflowId);
      result.converted.push({ workflowId, index, stepfile });
      const at = doc.locate(["workflows", index]);
      result.notes.push(...notes.map((message) => ({ path: `workflows[${index}]`, message, ...(at ? { line: at.line, column: at.column } : {}), rule: arazzoCredentialParameter.id })));
    } catch (error) {
      if (error instanceof WorkflowRefused) result.refused.push({ ...error.refusal, index });
      // A defect of ours in one workflow must not cost the others: it is named like a refusal, as ours.
      else result.refused.push({ workflow: workflowId, index, construct: "the workflow", reason: `Stepgate could not convert it (${(error as Error).message}); this is a Stepgate defect`, fix: "report it with the document; the other workflows are unaffected" });
    }
  }
  return result;
}

export class UnknownWorkflow extends Error {
  override readonly name = "UnknownWorkflow";
  constructor(id: string, known: string[]) {
    super(`the document has no workflow ${id} (it has ${known.join(", ") || "none"})`);
  }
}

function convertWorkflow(workflow: JsonObject, workflowId: string, document: JsonObject, sources: ReadonlyMap<string, SourceState>): { stepfile: JsonObject; notes: string[] } {
  const place = { workflow: workflowId };
  if (workflow.dependsOn !== undefined) {
    refuse(place, "dependsOn", "a stepfile is run on its own, so nothing makes other workflows run before it", "run those workflows first as their own stepfiles, or make them this workflow's first steps (workflowId steps)");
  }
  const declared = inputsSchema(workflow.inputs, document, place);
  const build: Build = { ids: new IdPool(), steps: [], operations: [], credentialParameters: [], secretInputs: new Set() };
  const top = convertSteps({ workflow, workflowId, document, sources, input: (name) => ({ var: `inputs.${name}` }), prefix: "", guard: true, stack: [] }, build);
  if (isObject(workflow.outputs) && Object.keys(workflow.outputs).length > 0) {
    const scope = { workflow: workflowId, input: (name: string) => ({ var: `inputs.${name}` }), stepOutputs: (id: string) => top.get(id) };
    const pairs = Object.entries(workflow.outputs).map(([name, value]) => [name, expression(value, { ...scope, step: `(outputs.${name})` })]);
    build.steps.push({ id: build.ids.take("outputs"), do: { output: { object: pairs } }, produces: { type: "object" } });
  }
  const { tools, credentials } = toolsOf(build.operations, place);
  const inputs = withoutSecretInputs(declared, build);
  const info = isObject(document.info) ? document.info : {};
  const summary = typeof workflow.summary === "string" ? workflow.summary.trim() : undefined;
  const description = [typeof workflow.description === "string" ? workflow.description.trim() : summary, `Converted from the Arazzo workflow ${workflowId}${typeof info.title === "string" ? ` of "${info.title}"` : ""}.`]
    .filter(Boolean)
    .join("\n\n");
  const stepfile = {
    stepgate: "1",
    id: kebab(workflowId),
    ...(summary ?? info.title ? { title: summary ?? String(info.title) } : {}),
    description,
    inputs,
    ...(Object.keys(credentials).length > 0 ? { credentials } : {}),
    ...(Object.keys(tools).length > 0 ? { tools } : {}),
    steps: build.steps,
  };
  return { stepfile, notes: credentialNotes(build.credentialParameters, tools) };
}

/**
 * One note per parameter that set where a credential goes (a workflow-level
 * one applies to each of its steps): that place gets the credential Stepgate
 * holds, read from the environment. The value written is not repeated.
 */
function credentialNotes(replaced: Build["credentialParameters"], tools: JsonObject): string[] {
  const byParameter = new Map<string, Build["credentialParameters"]>();
  for (const c of replaced) byParameter.set(`${c.workflow}\0${c.parameter.name}`, [...(byParameter.get(`${c.workflow}\0${c.parameter.name}`) ?? []), c]);
  return [...byParameter.values()].map((uses) => {
    const { workflow, parameter } = uses[0]!;
    const credentials = [...new Set(uses.map((c) => (Object.values(tools).find((t) => isObject(t) && Array.isArray(t.exposes) && t.exposes.includes(c.op.operationId)) as { credential?: string } | undefined)?.credential ?? ""))];
    const variables = credentials.map((c) => `${c.toUpperCase().replaceAll("-", "_")}_API_KEY`);
    const steps = uses.map((c) => c.step);
    const where = parameter.in === "query" ? "query parameter" : parameter.in ?? "header";
    return `workflow ${workflow}, step${steps.length > 1 ? "s" : ""} ${steps.join(", ")}: parameter ${parameter.name} (in ${parameter.in ?? "header"}) is not sent as written: the security scheme of ${uses.length > 1 ? "those operations" : `operation ${uses[0]!.op.operationId}`} puts its credential in that ${where}, so Stepgate sends the credential ${credentials.join(", ")} there, read from ${variables.join(", ")} when the call is made (a value written in the document, or given as an input, is never sent)`;
  });
}

/**
 * Inputs that only carry a secret are dropped, so the agent is never asked
 * for one: those read by Redocly's `x-security` extension (an Arazzo
 * extension field, which other tools may ignore; it feeds a security scheme
 * from workflow inputs) and by parameters that set where the credential goes
 * (arguments.ts), in this workflow or one it inlines, when no converted step
 * reads them. The scheme is a credential Stepgate holds (security.ts), read
 * from the environment.
 */
function withoutSecretInputs(inputs: JsonObject, build: Build): JsonObject {
  const read = JSON.stringify(build.steps);
  const dropped = [...build.secretInputs].filter((name) => !new RegExp(`inputs\\.${name}(?![A-Za-z0-9_-])`).test(read));
  if (dropped.length === 0 || !isObject(inputs.properties)) return inputs;
  const properties = Object.fromEntries(Object.entries(inputs.properties).filter(([k]) => !dropped.includes(k)));
  const required = Array.isArray(inputs.required) ? inputs.required.filter((r) => !dropped.includes(String(r))) : undefined;
  return { ...inputs, properties, ...(required ? { required } : {}) };
}

/** One tool per source the workflow calls, exposing just the operations it calls, with the source's credential. */
function toolsOf(operations: readonly FoundOperation[], place: { workflow: string }): { tools: JsonObject; credentials: Record<string, Credential> } {
  const bySource = new Map<string, FoundOperation[]>();
  for (const op of operations) bySource.set(op.source.name, [...(bySource.get(op.source.name) ?? []), op]);
  const tools: JsonObject = {};
  const credentials: Record<string, Credential> = {};
  const exposedBy = new Map<string, string>();
  const toolIds = new IdPool();
  for (const [name, ops] of bySource) {
    const source = ops[0]!.source;
    const exposes = [...new Set(ops.map((o) => o.operationId))];
    for (const e of exposes) {
      if (!/^[a-zA-Z0-9_-]{1,64}$/.test(e)) refuse(place, `operationId ${e}`, "a stepfile exposes operations by names of letters, digits, _ and - (at most 64)", "rename the operationId in the OpenAPI document");
      const other = exposedBy.get(e);
      if (other !== undefined) refuse(place, `operationId ${e}`, `sources ${other} and ${name} both define it, and exposed names are unique across a stepfile`, "rename one of them in its OpenAPI document");
      exposedBy.set(e, name);
    }
    const credential = credentialFor(ops, place);
    if (credential) {
      if (credentials[credential.name]) credential.name = `${kebab(name)}-${credential.name}`;
      credentials[credential.name] = credential.credential;
    }
    const openapi = source.origin.kind === "inline" ? { server: source.server, document: source.document } : { server: source.server, url: source.origin.url, sha256: source.origin.sha256 };
    tools[toolIds.take(name)] = { openapi, ...(credential ? { credential: credential.name } : {}), exposes };
  }
  return { tools, credentials };
}
