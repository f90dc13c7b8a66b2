// What rules read of a file beyond its document, computed on first use and
// once for every rule of the pass: each exposed operation of its OpenAPI
// documents (their responses and inputs), and the path walk's findings.
import type { RawIssue } from "../../format/rules.js";
import type { StepfileDocument } from "../../format/types.js";
import { operationInputs, type OperationInputs } from "../operation-inputs.js";
import { walkPaths } from "../path-walk.js";
import { inlineOperations, inlineResponseSchemas, type InlineOperation, type OperationResponses } from "../response-schemas.js";

export class FileFacts {
  private operationsMemo?: Map<string, InlineOperation>;
  private responsesMemo?: Map<string, OperationResponses>;
  private inputsMemo?: Map<string, OperationInputs>;
  private pathsMemo?: Map<string, RawIssue[]>;

  constructor(private readonly doc: StepfileDocument) {}

  /** Each exposed operation of an OpenAPI document the file holds, by name. */
  get operations(): ReadonlyMap<string, InlineOperation> {
    return (this.operationsMemo ??= inlineOperations(this.doc));
  }

  /** Each such operation's response schemas. */
  get responses(): ReadonlyMap<string, OperationResponses> {
    return (this.responsesMemo ??= inlineResponseSchemas(this.operations));
  }

  /** Each such operation's arguments, named as the OpenAPI tools name them. */
  get inputs(): ReadonlyMap<string, OperationInputs> {
    return (this.inputsMemo ??= operationInputs(this.operations));
  }

  /** The path walk's findings (src/loader/path-walk.ts) for one rule id, in the order the walk met them. */
  paths(rule: string): readonly RawIssue[] {
    if (!this.pathsMemo) {
      this.pathsMemo = new Map();
      for (const issue of walkPaths(this.doc, { responses: this.responses, inputs: this.inputs })) {
        const list = this.pathsMemo.get(issue.rule!);
        if (list) list.push(issue);
        else this.pathsMemo.set(issue.rule!, [issue]);
      }
    }
    return this.pathsMemo.get(rule) ?? [];
  }
}
