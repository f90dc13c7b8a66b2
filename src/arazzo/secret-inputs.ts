// Which of the converted workflow's inputs a value reads, followed through
// the workflows it inlines: an inlined workflow's `$inputs.x` is what its
// workflowId step passed as `x` (steps.ts, Frame.input), itself read from
// the caller's inputs. Used for the values a credential Stepgate holds
// replaces (a parameter that sets where it goes, Redocly's x-security), so
// an input that carries only a secret is dropped however deep it is passed.
import { isObject } from "../format/json-pointer.js";
import type { Logic } from "./json-logic.js";

/** The converted workflow's input names the `$inputs.<name>` expressions in `node` come from, `input` being the frame's. */
export function inputsRead(node: unknown, input: (name: string) => Logic): string[] {
  const names: string[] = [];
  const visit = (n: unknown): void => {
    if (typeof n === "string") {
      for (const m of n.matchAll(/\$inputs\.([A-Za-z0-9_-]+)/g)) {
        for (const v of JSON.stringify(input(m[1]!)).matchAll(/"var":"inputs\.([A-Za-z0-9_-]+)/g)) names.push(v[1]!);
      }
    } else if (Array.isArray(n)) n.forEach(visit);
    else if (isObject(n)) Object.values(n).forEach(visit);
  };
  visit(node);
  return names;
}
