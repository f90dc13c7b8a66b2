// The one MCP server factory every transport uses: each served stepfile as
// a tool, stepgate_call and stepgate_submit, which drive runs, and the
// authoring tools. It knows nothing of stdio or HTTP; it hands each
// session's requests to the engine or to src/authoring.
import { ProtocolError, ProtocolErrorCode, Server, type InputRequiredResult, type ServerContext } from "@modelcontextprotocol/server";
import type { Authoring, AuthoringAnswer, AuthoringOptions } from "../authoring/index.js";
import { isAuthoringTool } from "../authoring/definitions.js";
import { StepgateError } from "../errors.js";
import type { RunRegistry } from "../engine/registry.js";
import type { Reply } from "../engine/replies.js";
import type { ServedStepfiles } from "./served.js";
import type { Session } from "../session.js";
import type { McpServerFactory } from "./factory-types.js";
import { SERVER_INSTRUCTIONS } from "./instructions.js";
import { SERVER_NAME, serverCapabilities } from "./server-info.js";
import { listedTools, toolsListResultJson } from "./tool-list.js";
import { ApprovalRounds, elicitationApprover } from "./approver.js";
import { renderReply, type ToolResult } from "./render.js";
import { serveResources } from "./resources.js";
import { KeptLedgers } from "../ledger/kept.js";
import { announceOutsideRequests, requestEvents } from "./run-events.js";
import type { RunEvents } from "../engine/events.js";
import { watchedServer, type OperationWatch } from "./watched-server.js";

export interface FactoryOptions {
  stepfiles: ServedStepfiles;
  registry: RunRegistry;
  version: string;
  /** How long a person may take to answer an approve gate (--run-idle-ms). */
  approvalTimeoutMs: number;
  /** The catalog, the operator's draft grants and request limits for the authoring tools. */
  authoring: AuthoringOptions;
  /** The runs' ledger lines, for the ledger and timeline resources (none kept when absent). */
  ledgers?: KeptLedgers;
  /** Called after a server answered tools/list (the transport may load what a first call needs then). */
  onToolsListed?: () => void;
  /** Sees every request and session (telemetry's server spans); then tools/list is never answered around the servers. */
  watch?: OperationWatch;
}

export function createServerFactory(options: FactoryOptions): McpServerFactory {
  const servers = new Map<string, { server: Server; stopListening: () => void }>();
  // The authoring tools (markdown, OpenAPI and MCP inspection, ...) load on
  // their first call: most sessions only run stepfiles.
  let authoring: Promise<Authoring> | undefined;
  const authoringTools = () => (authoring ??= import("../authoring/index.js").then((m) => new m.Authoring({ ...options.authoring, served: (id) => options.stepfiles.byId(id)?.loaded })));
  const rounds = new ApprovalRounds(options.approvalTimeoutMs);
  const ledgers = options.ledgers ?? new KeptLedgers(0);
  const ServerClass = options.watch ? watchedServer(options.watch) : Server;
  // Lives as long as the factory, which is the process's.
  announceOutsideRequests(options.registry, options.stepfiles, (id) => servers.get(id)?.server, () => [...servers.values()].map((s) => s.server));

  const factory: McpServerFactory = {
    create(session: Session) {
      options.watch?.sessionOpened(session.id);
      const server = new ServerClass(
        { name: SERVER_NAME, version: options.version },
        { capabilities: serverCapabilities(), instructions: SERVER_INSTRUCTIONS, requestState: { verify: rounds.verify } },
      );
      // With --watch, a reloaded stepfile changes the tool list: tell the client.
      const stopListening = options.stepfiles.onChange(() => void server.sendToolListChanged().catch(() => undefined));
      const own = { server, stopListening };
      servers.set(session.id, own);
      // Over 2026-07-28 the SDK makes a server per request, all for the one
      // shared session, and closes each after its answer (chaining onclose):
      // each must take its listener and its map entry away with it, or both
      // would grow with every request. A transport that sets its own onclose
      // (stdio, 2025 sessions) ends the session instead, and endSession cleans up.
      server.onclose = () => {
        stopListening();
        if (servers.get(session.id) === own) servers.delete(session.id);
      };
      server.setRequestHandler("tools/list", () => {
        options.onToolsListed?.();
        return { tools: listedTools(options.stepfiles) as never };
      });
      // A call that starts a run adds the run's resources to the session's list.
      const announceRuns = serveResources(server, session, { registry: options.registry, ledgers, catalog: options.authoring.catalog });
      server.setRequestHandler("tools/call", async (request, ctx) => {
        const { name, arguments: args = {} } = request.params;
        const events = requestEvents(ctx, request.params._meta?.progressToken);
        const result = await callTool(name, args as Record<string, unknown>, session, server, ctx, events);
        announceRuns();
        return result as never;
      });
      return server;
    },
    sessionRuns(session: Session) {
      return { active: options.registry.hasActiveRun(session), started: options.registry.hasStartedRun(session) };
    },
    endSession(session: Session, reason: "session_closed" | "server_closed" = "session_closed") {
      options.watch?.sessionEnded(session.id);
      servers.get(session.id)?.stopListening();
      servers.delete(session.id);
      for (const run of options.registry.runsOf(session)) ledgers.forget(run);
      return options.registry.endSession(session, reason);
    },
  };
  // A watched server must see every tools/list, so the transports' cached answer is offered only unwatched.
  if (!options.watch) factory.toolsListResult = () => toolsListResultJson(options.stepfiles);
  return factory;

  async function callTool(name: string, args: Record<string, unknown>, session: Session, server: Server, ctx: ServerContext, events: RunEvents): Promise<ToolResult | InputRequiredResult> {
    // A reply that waits for a person becomes an input-required result; the client repeats this call with the answers.
    const respond = async (reply: Reply) => (reply.kind === "approval" ? rounds.ask(name, args, reply) : renderReply(reply));
    // Only the call that asked may bring the answers back, unchanged: these calls start runs, so the run's
    // inputs alone do not show it is the same call (stepgate_try's draft is not part of the run).
    const answerStart = async (inputs: unknown) => {
      const repeated = rounds.read(ctx, name, args);
      if (!repeated) return undefined;
      if (!repeated.sameCall) return usage(`this call carries a person's answers for run ${repeated.run}, but not the arguments of the call that asked; repeat that call unchanged`);
      return respond(await options.registry.answerStart(repeated.run, session, inputs, repeated.answers, events));
    };
    const entry = options.stepfiles.byId(name);
    if (entry?.unreadable) return renderReply({ kind: "failed", run: "", state: "failed", error: entry.unreadable });
    if (entry) return (await answerStart(args)) ?? respond(await options.registry.start(entry.loaded, args, session, elicitationApprover(server, ctx, options.approvalTimeoutMs), events));
    if (isAuthoringTool(name)) {
      if (name === "stepgate_try") {
        const resumed = await answerStart(args.inputs ?? {});
        if (resumed) return resumed;
      }
      try {
        return await renderAuthoring(await (await authoringTools()).call(name, args, { registry: options.registry, session, approver: () => elicitationApprover(server, ctx, options.approvalTimeoutMs), events }), respond);
      } catch (error) {
        if (!(error instanceof StepgateError)) throw error;
        // stepgate_try failing before its run starts reads like any run that failed to start.
        if (name === "stepgate_try") return renderReply({ kind: "failed", run: "", state: "failed", error });
        return { content: [{ type: "text", text: `${error.name}: ${error.message}` }], structuredContent: { error: error.name, message: error.message, details: error.details }, isError: true };
      }
    }
    if (name === "stepgate_call" || name === "stepgate_submit") {
      const run = args.run;
      if (typeof run !== "string" || run === "") return usage(`${name} needs run, the run id a stepfile tool returned`);
      if (name === "stepgate_call") {
        if (typeof args.operation !== "string") return usage("stepgate_call needs operation, one the current step lists");
        return renderReply(await options.registry.call(run, session, args.operation, args.arguments ?? {}, events));
      }
      if (!("output" in args)) return usage("stepgate_submit needs output, the step's output as JSON");
      // The run checks that the output is the one waiting; answers for another run are not this call's.
      const repeated = rounds.read(ctx, name, args);
      const answers = repeated?.run === run ? repeated.answers : undefined;
      return respond(await options.registry.submit(run, session, args.output, answers, events));
    }
    // A name this server does not list is a protocol error, not a tool
    // result: MCP 2025-11-25, server/tools "Error Handling", lists "Unknown
    // tools" under Protocol Errors, with the example error -32602 (Invalid
    // params) "Unknown tool: ..."; 2024-11-05, 2025-03-26 and 2025-06-18 say
    // the same and no revision says otherwise, so every era gets it.
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
  }
}

async function renderAuthoring(answer: AuthoringAnswer, respond: (reply: Reply) => Promise<ToolResult | InputRequiredResult>): Promise<ToolResult | InputRequiredResult> {
  switch (answer.kind) {
    case "run":
      return respond(answer.reply);
    case "usage":
      return usage(answer.text);
    case "data":
      return { content: [{ type: "text", text: answer.text }], structuredContent: answer.data };
  }
}

function usage(text: string): ToolResult {
  return { content: [{ type: "text", text }], structuredContent: { error: "InvalidRequest", message: text }, isError: true };
}
