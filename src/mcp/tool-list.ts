// The tools/list result: each served stepfile as a tool, then the run and
// authoring tools. Plain data with no MCP SDK types, so a transport can
// answer tools/list before the SDK is loaded (src/stdio/early.ts).
import { AUTHORING_TOOLS } from "../authoring/definitions.js";
import type { LoadedStepfile } from "../loader/load.js";
import { RUN_TOOLS } from "./run-tools.js";
import type { ServedStepfiles } from "./served.js";

export type ToolList = ReturnType<typeof toolList>;

// Every session asks for the same list until --watch changes it: built and
// serialized once per catalog version, shared by every server and transport.
const listed = new WeakMap<ServedStepfiles, { version: number; tools: ToolList; json?: string }>();

/** The tools every server of `stepfiles` lists now. */
export function listedTools(stepfiles: ServedStepfiles): ToolList {
  return current(stepfiles).tools;
}

/** The tools/list result as JSON (`{"tools":[...]}`), the same string until the catalog changes. */
export function toolsListResultJson(stepfiles: ServedStepfiles): string {
  const entry = current(stepfiles);
  return (entry.json ??= JSON.stringify({ tools: entry.tools }));
}

function current(stepfiles: ServedStepfiles) {
  const version = stepfiles.version;
  let entry = listed.get(stepfiles);
  if (entry?.version !== version) {
    entry = { version, tools: toolList(stepfiles.list()) };
    listed.set(stepfiles, entry);
  }
  return entry;
}

/**
 * stepgate_call and stepgate_submit are listed even with no stepfiles served,
 * because runs started by stepgate_try need them too, and a list that changed
 * when a draft started would force the client to re-read it mid-run.
 */
function toolList(stepfiles: readonly LoadedStepfile[]) {
  return [
    ...stepfiles.map((s) => ({
      name: s.doc.id,
      ...(s.doc.title ? { title: s.doc.title } : {}),
      description: s.doc.description ?? s.doc.title ?? `Run the stepfile ${s.doc.id}`,
      inputSchema: s.doc.inputs,
    })),
    ...RUN_TOOLS,
    ...AUTHORING_TOOLS,
  ];
}
