// The paths of the data a template or expression reads, so a caller can tell
// whether its value depends only on data it already holds (the engine's
// check, before a person approves, of the mechanical calls that follow).
// Paths inside an iterating operator's body read the current item, so they
// are not the data's; a path computed at run time (`{ var: { cat: ... } }`)
// or the whole data (`{ var: "" }`) could read anything, and makes the
// answer undefined.
import { templateKind } from "./template.js";

const ITERATIONS: ReadonlySet<string> = new Set(["map", "filter", "reduce", "all", "some", "none"]);

/** Every literal path a template reads from its data, split at dots; undefined when what it reads cannot be told. */
export function templateReads(template: unknown): string[][] | undefined {
  const reads: string[][] = [];
  return walkTemplate(template, reads) ? reads : undefined;
}

function walkTemplate(node: unknown, reads: string[][]): boolean {
  switch (templateKind(node)) {
    case "array":
      return (node as unknown[]).every((item) => walkTemplate(item, reads));
    case "object":
      return Object.values(node as Record<string, unknown>).every((value) => walkTemplate(value, reads));
    case "expression":
      return walkExpression(node, reads);
    default:
      return true;
  }
}

function walkExpression(node: unknown, reads: string[][]): boolean {
  if (Array.isArray(node)) return node.every((item) => walkExpression(item, reads));
  if (node === null || typeof node !== "object") return true;
  const keys = Object.keys(node);
  if (keys.length !== 1) return true;
  const name = keys[0]!;
  const value = (node as Record<string, unknown>)[name];
  const args = Array.isArray(value) ? value : [value];
  if (name === "var") return readPath(args[0], reads) && args.slice(1).every((arg) => walkExpression(arg, reads));
  if (name === "missing" || name === "missing_some") {
    const listed = name === "missing_some" ? args[1] : Array.isArray(args[0]) ? args[0] : args;
    return Array.isArray(listed) && listed.every((path) => readPath(path, reads));
  }
  // The body reads the item; the list, and reduce's start value, read the data.
  if (ITERATIONS.has(name)) return args.every((arg, i) => i === 1 || walkExpression(arg, reads));
  return args.every((arg) => walkExpression(arg, reads));
}

function readPath(path: unknown, reads: string[][]): boolean {
  if (typeof path === "number") path = String(path);
  if (typeof path !== "string" || path === "") return false;
  reads.push(path.split("."));
  return true;
}
