// Mutations of the evidence side, for mechanical steps (whose output is
// computed, not written): a recorded API result varied the way real APIs
// vary. The step runs on the varied result; when it goes on with an output
// other than the recorded one, no gate stopped a result it should have.
import type { PathSegment } from "../../../format/source.js";
import type { CaseCall } from "../../cases-file.js";
import type { DocumentedRequired } from "./documented.js";

export interface EvidenceMutant {
  call: CaseCall;
  change: string;
  /** Where in the entry, from `calls`: ["calls", 0, "result", "items"]. */
  at: PathSegment[];
}

export interface EvidenceCall {
  call: CaseCall;
  /** Its place among the entry's calls. */
  index: number;
  /** The call's tool is an OpenAPI operation, whose results carry an HTTP status. */
  http: boolean;
  /** Fields the operation's inline document requires, which an API does not leave out. */
  required: DocumentedRequired;
}

export interface EvidenceKind {
  name: string;
  derive(at: EvidenceCall): EvidenceMutant[];
}

/** Every object and array in a result down to `depth`, with its path; arrays contribute their first item only. */
export function containers(value: unknown, depth: number, path: PathSegment[] = []): Array<{ node: object; path: PathSegment[] }> {
  if (value === null || typeof value !== "object" || depth < 0) return [];
  const here = [{ node: value, path }];
  if (Array.isArray(value)) return value.length > 0 ? [...here, ...containers(value[0], depth - 1, [...path, 0])] : here;
  return [...here, ...Object.entries(value).flatMap(([k, v]) => containers(v, depth - 1, [...path, k]))];
}

/** A copy of `root` with the node at `path` replaced by what `change` makes of it. */
export function alteredAt(root: unknown, path: PathSegment[], change: (node: unknown) => unknown): unknown {
  if (path.length === 0) return change(root);
  const copy = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<string | number, unknown>;
  copy[path[0]!] = alteredAt(copy[path[0]!], path.slice(1), change);
  return copy;
}
