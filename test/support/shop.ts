// Issue 27's shop fixture (test/fixtures/shop/): the passing stepfile, the
// four mistakes the checks used to miss, and the six they caught already,
// each made alone in it, with the rule that must report it and what the
// finding must say (what to write instead included).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { mistake, type Mistake } from "./lend-books.js";

export const SHOP_FILE = fileURLToPath(new URL("../fixtures/shop/refund-out-of-stock.stepfile.yaml", import.meta.url));
export const SHOP = readFileSync(SHOP_FILE, "utf8");

export interface ShopMistake extends Mistake {
  rule: string;
}

const made = (from: string, to: string) => mistake(from, to, SHOP);

/** Silent before issue 27. */
export const FOUR_MISSED: ShopMistake[] = [
  {
    name: "a gate's let reading calls[...].result.line_items where the response declares items",
    text: made("{ var: calls.0.result.items }", "{ var: calls.0.result.line_items }"),
    rule: "undeclared-path",
    path: "steps[0].let.missing.filter[0].var",
    at: /^calls\.0\.result\.line_items \}/,
    says: /"calls\.0\.result\.line_items": each response \(errors included, as is_error says\) of getOrder declares no property line_items there.*did you mean calls\.0\.result\.items\?/,
  },
  {
    name: "a mechanical step's gate reading steps.decide.output.total where decide produces total_cents",
    text: made("{ var: output.amount_cents }, { var: steps.decide.total_cents }", "{ var: output.amount_cents }, { var: steps.decide.output.total }"),
    rule: "undeclared-path",
    path: 'steps[1].gates[1].predicate["=="][1].var',
    at: /^steps\.decide\.output\.total \}/,
    says: /"steps\.decide\.output\.total": the produces schema of step decide declares no property output there.*did you mean steps\.decide\.total_cents\?/,
  },
  {
    name: "{{inputs.order}} in instructions where the closed inputs declare order_id",
    text: made("Read order {{inputs.order_id}}", "Read order {{inputs.order}}"),
    rule: "unresolvable-placeholder",
    path: "steps[0].instructions",
    at: /^"Read order \{\{inputs\.order\}\}/,
    says: /\{\{inputs\.order\}\}: the inputs schema declares no property order there \(it is closed: additionalProperties is false\), so it will have no value, and the run fails with PlaceholderUnresolved when step decide starts; did you mean \{\{inputs\.order_id\}\}\?/,
  },
  {
    name: "the refund POST in the agent step's tools",
    text: made("    tools: [getOrder]\n", "    tools: [getOrder, createRefund]\n"),
    rule: "agent-write",
    path: "steps[0].tools[1]",
    at: /^createRefund\]/,
    says: /createRefund \(POST \/orders\/\{order_id\}\/refunds\) changes something, and step decide's agent may call it with any arguments, any number of times, before any gate of the step runs, and the approve gate person-approves asks the person only after those calls are made; to gate the write, take createRefund out of tools and call it from a mechanical step after decide/,
  },
];

/** Caught before issue 27, and still. */
export const SIX_CAUGHT: ShopMistake[] = [
  {
    name: "results reading line_items",
    text: made('predicate: { ">": [{ length: { results: [getOrder, items] } }, 0] }', 'predicate: { ">": [{ length: { results: [getOrder, line_items] } }, 0] }'),
    rule: "undeclared-path",
    path: 'steps[0].gates[0].predicate[">"][0].length.results[1]',
    at: /^line_items\]/,
    says: /"line_items": the response schema of getOrder declares no property line_items there.*did you mean items\?/,
  },
  {
    name: "a mechanical output reading a response field the API does not declare",
    text: made("{ var: responses.create.status }", "{ var: responses.create.stats }"),
    rule: "undeclared-path",
    path: "steps[1].do.output.status.var",
    at: /^responses\.create\.stats \}/,
    says: /did you mean responses\.create\.status\?/,
  },
  {
    name: "a required body field left out",
    text: made("              skus: { var: steps.decide.skus }\n", ""),
    rule: "call-arguments",
    path: "steps[1].do.calls[0].arguments.body",
    at: /^amount_cents: /,
    says: /body lacks skus .*which the operation's schema requires, so call create \(createRefund\) is refused at run time \(CallArgumentsInvalid\); add skus to body/,
  },
  {
    name: "a literal the operation's enum refuses",
    text: made("reason: out_of_stock", "reason: out-of-stock"),
    rule: "call-arguments",
    path: "steps[1].do.calls[0].arguments.body.reason",
    at: /^out-of-stock/,
    says: /out_of_stock/,
  },
  {
    name: "a placeholder in an approve message",
    text: made("Refund these out-of-stock items? The SKUs and the total in cents are below.", "Refund {{output.total_cents}} cents?"),
    rule: "placeholder-shown-as-written",
    path: "steps[0].gates[3].approve.message",
    at: /^"Refund \{\{output\.total_cents\}\}/,
    says: /\{\{output\.total_cents\}\} (is|are) shown as written/,
  },
  {
    name: "step data read inside an iteration",
    text: made('{ "!": { var: in_stock } }', '{ "!": { var: output.in_stock } }'),
    rule: "step-data-in-item-scope",
    path: 'steps[0].let.missing.filter[1]["!"].var',
    at: /^output\.in_stock \}/,
    says: /"output\.in_stock" is read inside filter's item scope/,
  },
];
