// What rules read of a file beyond its document, computed on first use and
// once for every rule of the pass (errors and warnings share one FileFacts):
// which tool exposes each name, each exposed operation of its OpenAPI
// documents (their responses and inputs), what the MCP servers a check
// listed say of their tools (read-only or not, their outputSchema), the
// expression walk's findings and the path walk's.
import { exposedName, type StepfileDocument } from "../../format/types.js";
import type { ListedMcpTool } from "../agent-writes.js";
import { walkExpressions } from "../expression-walk.js";
import { mcpOutputSchemas } from "../mcp-output-schemas.js";
import { operationInputs, type OperationInputs } from "../operation-inputs.js";
import { walkPaths } from "../path-walk.js";
import { inlineOperations, inlineResponseSchemas, type InlineOperation, type OperationResponses } from "../response-schemas.js";
import type { RawIssue } from "../raw-issue.js";

export class FileFacts {
  private exposedMemo?: Map<string, string>;
  private operationsMemo?: Map<string, InlineOperation>;
  private responsesMemo?: Map<string, OperationResponses>;
  private inputsMemo?: Map<string, OperationInputs>;
  private expressionsMemo?: Map<string, RawIssue[]>;
  private pathsMemo?: Map<string, RawIssue[]>;

  /**
   * `mcpListings`: the tools/list of each MCP tool (by tool id) that
   * `--check` or stepgate_validate read (src/loader/findings.ts); a load
   * lists nothing, so a load's pass judges no MCP tool.
   */
  constructor(
    private readonly doc: StepfileDocument,
    readonly mcpListings: ReadonlyMap<string, readonly ListedMcpTool[]> = new Map(),
  ) {}

  /** Each exposed name, with the first tool (in the file's order) that exposes it. */
  get exposedBy(): ReadonlyMap<string, string> {
    if (!this.exposedMemo) {
      this.exposedMemo = new Map();
      for (const [toolId, tool] of Object.entries(this.doc.tools ?? {})) {
        for (const e of tool.exposes ?? []) {
          const name = exposedName(e);
          if (!this.exposedMemo.has(name)) this.exposedMemo.set(name, toolId);
        }
      }
    }
    return this.exposedMemo;
  }

  /** Each exposed operation of an OpenAPI document the file holds, by name. */
  get operations(): ReadonlyMap<string, InlineOperation> {
    return (this.operationsMemo ??= inlineOperations(this.doc));
  }

  /**
   * Each such operation's response schemas, and each listed MCP tool's
   * outputSchema in the same shape (src/loader/mcp-output-schemas.ts), so
   * a path into either, or into the union of both, is judged by one walk.
   */
  get responses(): ReadonlyMap<string, OperationResponses> {
    return (this.responsesMemo ??= new Map([...mcpOutputSchemas(this.doc, this.mcpListings), ...inlineResponseSchemas(this.operations)]));
  }

  /** Each such operation's arguments, named as the OpenAPI tools name them. */
  get inputs(): ReadonlyMap<string, OperationInputs> {
    return (this.inputsMemo ??= operationInputs(this.operations));
  }

  /** The expression walk's findings (src/loader/expression-walk.ts) for one rule id, in the order the walk met them. */
  expressions(rule: string): readonly RawIssue[] {
    return (this.expressionsMemo ??= byRule(walkExpressions(this.doc))).get(rule) ?? [];
  }

  /** The path walk's findings (src/loader/path-walk.ts) for one rule id, in the order the walk met them. */
  paths(rule: string): readonly RawIssue[] {
    return (this.pathsMemo ??= byRule(walkPaths(this.doc, { responses: this.responses, inputs: this.inputs }))).get(rule) ?? [];
  }
}

function byRule(issues: readonly RawIssue[]): Map<string, RawIssue[]> {
  const out = new Map<string, RawIssue[]>();
  for (const issue of issues) {
    const list = out.get(issue.rule!);
    if (list) list.push(issue);
    else out.set(issue.rule!, [issue]);
  }
  return out;
}
