// The authoring tools behind one call: each tool's arguments checked, its
// work done, and its answer as text plus data (or an engine Reply for
// stepgate_try, which starts a run). The MCP layer renders both; errors are
// thrown as the seed's typed errors. Each tool imports its own code when it
// is first called, as the CLI's modes do: listing the catalog must not wait
// for the loader, the engine, the markdown reader and the OpenAPI tools.
import { InternalError } from "../errors.js";
import { capText } from "../quote.js";
import type { Approver } from "../engine/context.js";
import type { RunEvents } from "../engine/events.js";
import type { RunRegistry } from "../engine/registry.js";
import type { Reply } from "../engine/replies.js";
import type { Session } from "../session.js";
import type { AuthoringToolName } from "./definitions.js";
import type { DraftRuleContext } from "./draft-rules.js";
import type { AuthoringOptions } from "./options.js";
import { publicHttpsUrl } from "./public-url.js";
import { withDraftHosts } from "./draft-hosts.js";
import type { MutateRequest, TestTarget } from "./test-cases.js";
import { DEFAULT_LIMITS } from "../limits.js";
import { AUTHORING_COUNT_LIMITS, BOUNDED_TOOLS, oversizedArgument, tooManySteps } from "./input-limits.js";

export { AUTHORING_TOOLS, isAuthoringTool } from "./definitions.js";
export type { AuthoringOptions, CatalogEntry } from "./options.js";
export { environmentNeeds } from "./needs.js";

export type AuthoringAnswer = { kind: "data"; text: string; data: Record<string, unknown> } | { kind: "usage"; text: string } | { kind: "run"; reply: Reply };

export interface CallerContext {
  registry: RunRegistry;
  session: Session;
  /** Asked for lazily: only stepgate_try runs need a person's approval. */
  approver: () => Approver | undefined;
  /** What stepgate_try's run reports while this request waits (progress, log messages), as for a stepfile's own tool. */
  events?: RunEvents | undefined;
}

export class Authoring {
  private readonly rules: DraftRuleContext;

  constructor(private readonly options: AuthoringOptions) {
    this.rules = { grants: options.grants, env: options.env, publicUrl: withDraftHosts(options.grants.hosts ?? [], options.publicUrl ?? publicHttpsUrl) };
  }

  async call(name: AuthoringToolName, args: Record<string, unknown>, caller: CallerContext): Promise<AuthoringAnswer> {
    // A draft or cases past its size bound is refused before any work holds the event loop (src/authoring/input-limits.ts).
    const tooLarge = BOUNDED_TOOLS.has(name) ? (oversizedArgument(name, args) ?? (await tooManySteps(name, args.text))) : undefined;
    if (tooLarge) return usage(tooLarge);
    switch (name) {
      case "stepgate_guide": {
        const { GUIDE_SECTIONS, guide, guideSection, guideText, isGuideSection } = await import("./guide.js");
        if (args.section !== undefined) {
          if (!isGuideSection(args.section)) return usage(`stepgate_guide takes section: one of ${Object.keys(GUIDE_SECTIONS).join(", ")}, or nothing for the guide itself`);
          const { text, data: sectionData } = guideSection(args.section);
          return data(text, sectionData);
        }
        // The text holds everything; the data what a program reads from it without parsing markdown.
        const g = guide();
        return data(guideText(g), { workflow: g.workflow, sections: g.sections });
      }
      case "stepgate_examples": {
        const { exampleText, examplesListText, listExamples, nearExamples, readExample } = await import("./examples.js");
        const catalog = this.options.catalog();
        if (args.name === undefined) {
          const examples = await listExamples(catalog, this.options.knownExample);
          return data(examplesListText(examples), { examples });
        }
        if (typeof args.name !== "string") return usage("stepgate_examples takes name, a catalog entry's name, or nothing");
        const example = await readExample(catalog, args.name);
        if (!example) {
          const near = nearExamples(catalog, args.name);
          const hint = near.length > 0 ? ` (did you mean ${near.join(" or ")}?)` : "";
          return usage(`${args.name} is not in the catalog${hint}; call stepgate_examples without a name for the list`);
        }
        return data(exampleText(example), { ...example });
      }
      case "stepgate_outline": {
        if (typeof args.markdown !== "string") return usage("stepgate_outline needs markdown, the procedure as markdown text");
        const { outline, outlineText, OutlineTooLarge } = await import("./outline.js");
        try {
          const result = outline(args.markdown, this.options.schemaUrl);
          return data(outlineText(result), { ...result });
        } catch (error) {
          if (error instanceof OutlineTooLarge) return usage(`stepgate_outline refused: ${error.message}`);
          throw error;
        }
      }
      case "stepgate_inspect_api": {
        const given = typeof args.url === "string" ? "url" : typeof args.document === "string" ? "document" : undefined;
        if (given === undefined || (typeof args.url === "string" && typeof args.document === "string")) {
          return usage("stepgate_inspect_api needs exactly one of url (an OpenAPI document's or MCP server's https URL) or document (an OpenAPI document's JSON or YAML text)");
        }
        const { inspectApi, inspectApiDocument } = await import("./inspect-api.js");
        const { inspectionText } = await import("./inspection-text.js");
        const inspection =
          given === "url" ? await inspectApi(args.url as string, this.options.requests, this.rules.publicUrl) : await inspectApiDocument(args.document as string, this.options.requests.maxBytes);
        return data(inspectionText(inspection), { ...inspection });
      }
      case "stepgate_validate": {
        if (typeof args.text !== "string") return usage("stepgate_validate needs text, the draft's YAML or JSON");
        const ignore = args.ignore ?? [];
        if (!Array.isArray(ignore) || !ignore.every((id) => typeof id === "string")) return usage("stepgate_validate's ignore is a list of rule ids, e.g. [\"unexplained-gate\"]");
        const { ignoreProblem } = await import("../loader/rules/index.js");
        for (const id of ignore) {
          const problem = ignoreProblem(id);
          if (problem !== undefined) return usage(`stepgate_validate ignore ${capText(id)}: ${problem}`);
        }
        const { validateDraft, validationText, draftFindings } = await import("./validate.js");
        const validation = validateDraft(args.text, this.rules, await draftFindings(args.text, this.options.requests, this.rules, ignore));
        return data(validationText(validation), { ...validation });
      }
      case "stepgate_try": {
        if (typeof args.text !== "string") return usage("stepgate_try needs text, the draft's YAML or JSON");
        const { tryDraft } = await import("./try.js");
        const reply = await tryDraft(args.text, args.inputs ?? {}, { registry: caller.registry, session: caller.session, approver: caller.approver(), events: caller.events, rules: this.rules });
        return { kind: "run", reply };
      }
      case "stepgate_test": {
        if (typeof args.cases !== "string") return usage("stepgate_test needs cases, a cases file's YAML or JSON text (cases: [{ name, inputs, steps: [{ step, calls, output, expect }] }])");
        if ((typeof args.text === "string") === (typeof args.stepfile === "string")) return usage("stepgate_test needs exactly one of text (a draft's YAML or JSON) or stepfile (a served stepfile's tool name)");
        let target: TestTarget;
        if (typeof args.text === "string") target = { text: args.text };
        else {
          const served = this.options.served?.(args.stepfile as string);
          if (!served) return usage(`${String(args.stepfile)} is not a stepfile this server serves; give the draft as text instead`);
          target = { stepfile: served };
        }
        const mutate = mutateArguments(args);
        if (typeof mutate === "string") return usage(mutate);
        const { testCases } = await import("./test-cases.js");
        const { CasesInvalid } = await import("../offline/index.js");
        const { MutantsFileInvalid } = await import("../offline/mutate/index.js");
        const { TooManyCases } = await import("./test-cases.js");
        try {
          const { report, text } = await testCases(target, args.cases, this.options.caseLimits ?? DEFAULT_LIMITS, mutate);
          return data(text, { ...report });
        } catch (error) {
          if (error instanceof CasesInvalid || error instanceof MutantsFileInvalid) return usage(`${error.name}: ${error.message}`);
          if (error instanceof TooManyCases) return usage(error.message);
          throw error;
        }
      }
      default:
        throw new InternalError(`no authoring tool ${String(name)}`);
    }
  }
}

/** stepgate_test's mutation arguments, or what is wrong with them. */
function mutateArguments(args: Record<string, unknown>): MutateRequest | undefined | string {
  const extra = ["mutants", "seed", "accepted"].filter((k) => args[k] !== undefined);
  if (args.mutate !== true) return extra.length > 0 ? `stepgate_test: ${extra.join(", ")} ${extra.length === 1 ? "is" : "are"} only for mutate: true` : undefined;
  const whole = (name: string, min: number, most?: number) => {
    const v = args[name];
    if (v === undefined || (typeof v === "number" && Number.isInteger(v) && v >= min && (most === undefined || v <= most))) return undefined;
    return `stepgate_test: ${name} must be a whole number of at least ${min}${most === undefined ? "" : ` and at most ${most} (every session of this server shares its work)`}`;
  };
  const wrong = whole("mutants", 1, AUTHORING_COUNT_LIMITS.mutants) ?? whole("seed", 0) ?? (args.accepted !== undefined && typeof args.accepted !== "string" ? "stepgate_test: accepted must be a <id>.mutants.yaml text" : undefined);
  if (wrong) return wrong;
  return {
    ...(typeof args.mutants === "number" ? { perEntry: args.mutants } : {}),
    ...(typeof args.seed === "number" ? { seed: args.seed } : {}),
    ...(typeof args.accepted === "string" ? { accepted: args.accepted } : {}),
  };
}

function data(text: string, value: Record<string, unknown>): AuthoringAnswer {
  return { kind: "data", text, data: value };
}

function usage(text: string): AuthoringAnswer {
  return { kind: "usage", text };
}
