// An Arazzo document given where a stepfile is expected (serving, --check):
// each workflow is converted and loaded exactly as its written stepfile
// would be (the same YAML text through the same loader), so serving the
// document and serving the files --from-arazzo writes cannot differ.
import { StepfileInvalid, StepfileUnreadable, type Issue } from "../errors.js";
import { loadStepfileText, type LoadCache, type LoadedStepfile } from "../loader/load.js";
import { arazzoUnconvertible } from "../loader/rules/arazzo-unconvertible.js";
import { convertDocument, type Conversion } from "./convert.js";
import { mayBeArazzo } from "./detect.js";
import { readArazzo } from "./document.js";
import { refusalLine } from "./refusals.js";
import type { SourceOptions } from "./sources.js";
import { stepfileText } from "./write.js";

export type ArazzoSourceOptions = Omit<SourceOptions, "documentPath">;

export interface ServedWorkflow {
  /** `<file>#<workflowId>`: where a message says it came from. */
  source: string;
  text: string;
}

export interface DocumentLoad {
  conversion: Conversion;
  workflows: ServedWorkflow[];
}

/** Whether a text is an Arazzo document, valid or not (an invalid one's issues are the answer to it); false for anything else, such as a stepfile. */
export function isArazzoDocument(text: string, path: string): boolean {
  if (!mayBeArazzo(text)) return false;
  try {
    readArazzo(text, path);
  } catch (error) {
    return error instanceof StepfileInvalid && !error.issues.some((i) => i.message.startsWith("this is not an Arazzo document"));
  }
  return true;
}

export async function convertText(path: string, text: string, options: ArazzoSourceOptions): Promise<DocumentLoad> {
  const conversion = await convertDocument(readArazzo(text, path), { ...options, documentPath: path });
  return { conversion, workflows: conversion.converted.map((c) => ({ source: `${path}#${c.workflowId}`, text: stepfileText(c.stepfile) })) };
}

/** Every refusal as an issue at its workflow's (or step's) place in the document. */
export function refusalIssues(conversion: Conversion, text: string, path: string): Issue[] {
  const doc = readArazzo(text, path);
  return conversion.refused.map((r) => {
    const workflow = (doc.data.workflows as { steps?: { stepId?: unknown }[] }[])[r.index];
    const stepIndex = r.step === undefined ? -1 : (workflow?.steps ?? []).findIndex((s) => s.stepId === r.step);
    const at = stepIndex >= 0 ? ["workflows", r.index, "steps", stepIndex] : ["workflows", r.index];
    const where = doc.locate(at);
    return { path: stepIndex >= 0 ? `workflows[${r.index}].steps[${stepIndex}]` : `workflows[${r.index}]`, message: `refused: ${refusalLine(r)}`, ...(where ? { line: where.line, column: where.column } : {}), rule: arazzoUnconvertible.id };
  });
}

/**
 * Serving: the document's workflows loaded, refusals printed through `warn`;
 * a document none of whose workflows converts is refused whole.
 */
/** What serving a document gives: each workflow's load with the document's findings about it, and the local files read beside it (--watch watches them). */
export interface ServedDocument {
  workflows: { source: string; loaded: LoadedStepfile; notes: Issue[] }[];
  /** The sources (`<file>#<workflowId>`) of the workflows refused, whose last good version --watch keeps. */
  refused: string[];
  files: string[];
}

export async function loadArazzoDocument(path: string, source: string, text: string, options: ArazzoSourceOptions, warn: (line: string) => void, cache?: LoadCache): Promise<ServedDocument> {
  const { conversion, workflows } = await convertText(path, text, options).catch((error: unknown) => {
    if (error instanceof StepfileInvalid) throw error;
    throw new StepfileUnreadable(source, (error as Error).message);
  });
  const refusals = refusalIssues(conversion, text, path);
  for (const issue of refusals) warn(`stepgate: ${source}${issue.line !== undefined ? `:${issue.line}:${issue.column ?? 1}` : ""}: ${issue.message}`);
  if (workflows.length === 0) throw new StepfileInvalid(refusals.length > 0 ? refusals : [{ path: "workflows", message: "no workflow to serve" }], source);
  // The document's findings (a credential parameter replaced, a version with no schema) go with the workflow they name, else the first.
  const { converted, notes } = conversion;
  const noteIndex = (note: Issue) => Math.max(0, converted.findIndex((c) => note.path === `workflows[${c.index}]`));
  return {
    workflows: workflows.map((w, i) => ({ source: w.source.replace(path, source), loaded: loadStepfileText(w.text, w.source.replace(path, source), cache), notes: notes.filter((n) => noteIndex(n) === i) })),
    refused: conversion.refused.map((r) => `${source}#${r.workflow}`),
    files: conversion.files,
  };
}

/**
 * `--check` of an Arazzo document: every refusal is an error at its place in
 * the document, and each converted workflow's stepfile is checked by the
 * loader like any other (its findings named `<workflowId>: <path>`).
 */
export async function checkArazzoDocument(path: string, text: string, options: ArazzoSourceOptions): Promise<{ errors: Issue[]; warnings: Issue[] }> {
  let load: DocumentLoad;
  try {
    load = await convertText(path, text, options);
  } catch (error) {
    if (error instanceof StepfileInvalid) return { errors: error.issues, warnings: [] };
    throw error;
  }
  const errors = refusalIssues(load.conversion, text, path);
  const warnings = [...load.conversion.notes];
  for (const [i, w] of load.workflows.entries()) {
    // The converted stepfile's line and column are not the document's, so they are left out; the rule id stays (--ignore, SARIF).
    const named = (issue: Issue): Issue => ({ path: `${load.conversion.converted[i]!.workflowId}: ${issue.path}`, message: issue.message, ...(issue.rule ? { rule: issue.rule } : {}) });
    try {
      warnings.push(...loadStepfileText(w.text, w.source).warnings.map(named));
    } catch (error) {
      if (!(error instanceof StepfileInvalid)) throw error;
      errors.push(...error.issues.map(named));
    }
  }
  return { errors, warnings };
}
