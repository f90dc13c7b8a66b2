// What an inline OpenAPI operation takes as arguments, read at load for the
// warnings on a mechanical call's `arguments`: one entry per argument (the
// parameters under the names the OpenAPI tools give them, and `body`), each
// with its schema left in place in the document (its `$ref`s are followed
// while checking, never inlined here: load stays linear in what is read).
import { ApiDocumentInvalid } from "../errors.js";
import type { JsonObject } from "../format/json-pointer.js";
import { argumentNames, declaredParams, onlyValue, type ParamLocation } from "../format/openapi-parameters.js";
import { chooseRequestBody } from "../format/openapi-request-body.js";
import { follow, type InlineOperation, type LocatedSchema } from "./response-schemas.js";

export interface ArgumentSpec {
  /** A parameter's location, or body. */
  where: ParamLocation | "body";
  required: boolean;
  schema: LocatedSchema;
  /** A one-value parameter: hidden from the client, sent with this value; an argument may repeat it. */
  fixed?: { value: unknown };
}

export interface OperationInputs {
  /** Argument name -> what it carries. */
  arguments: Map<string, ArgumentSpec>;
}

/** The inputs of each operation; an operation the tools would refuse to build (ApiDocumentInvalid) is left out, so nothing is judged against it. */
export function operationInputs(operations: ReadonlyMap<string, InlineOperation>): Map<string, OperationInputs> {
  const out = new Map<string, OperationInputs>();
  for (const [name, found] of operations) {
    try {
      out.set(name, inputsOf(name, found));
    } catch (error) {
      if (!(error instanceof ApiDocumentInvalid)) throw error;
    }
  }
  return out;
}

function inputsOf(name: string, { operation, pathItem, path, document }: InlineOperation): OperationInputs {
  // declaredParams and chooseRequestBody read dereferenced objects; here the
  // parameter and body objects themselves are followed, their schemas not.
  const params = (list: unknown) => (Array.isArray(list) ? list.map((p) => follow(p, document)) : list);
  const declared = declaredParams({ ...pathItem, parameters: params(pathItem.parameters) }, { ...operation, parameters: params(operation.parameters) }, path, name);
  const requestBody = follow(operation.requestBody, document);
  const body = chooseRequestBody({ ...operation, requestBody: requestBody as JsonObject }, name);
  const names = argumentNames(declared, body !== undefined);
  const args = new Map<string, ArgumentSpec>();
  declared.forEach((p, i) => {
    const fixed = onlyValue(follow(p.schema, document));
    args.set(names[i]!, { where: p.in, required: p.required && !fixed, schema: { schema: p.schema, root: document }, ...(fixed ? { fixed } : {}) });
  });
  if (body) args.set("body", { where: "body", required: body.required, schema: { schema: body.kind === "json" ? body.schema : { type: "string" }, root: document } });
  return { arguments: args };
}

