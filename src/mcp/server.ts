// The one MCP server factory every transport uses: each served stepfile as
// a tool, plus stepgate_call and stepgate_submit, which drive runs. It knows
// nothing of stdio or HTTP; it hands each session's requests to the engine.
import { Server } from "@modelcontextprotocol/server";
import type { RunRegistry } from "../engine/registry.js";
import type { LoadedStepfile } from "../loader/load.js";
import type { ServedStepfiles } from "./served.js";
import type { Session } from "../session.js";
import type { McpServerFactory } from "./factory-types.js";
import { SERVER_INSTRUCTIONS } from "./instructions.js";
import { elicitationApprover } from "./approver.js";
import { renderReply, type ToolResult } from "./render.js";
import { RUN_TOOLS } from "./run-tools.js";

export interface FactoryOptions {
  stepfiles: ServedStepfiles;
  registry: RunRegistry;
  version: string;
  /** How long a person may take to answer an approve gate (--run-idle-ms). */
  approvalTimeoutMs: number;
}

export function createServerFactory(options: FactoryOptions): McpServerFactory {
  const servers = new Map<string, { server: Server; stopListening: () => void }>();

  return {
    create(session: Session) {
      const server = new Server({ name: "stepgate", version: options.version }, { capabilities: { tools: { listChanged: true } }, instructions: SERVER_INSTRUCTIONS });
      // With --watch, a reloaded stepfile changes the tool list: tell the client.
      const stopListening = options.stepfiles.onChange(() => void server.sendToolListChanged().catch(() => undefined));
      servers.set(session.id, { server, stopListening });
      server.setRequestHandler("tools/list", () => ({ tools: toolList(options.stepfiles.list()) as never }));
      server.setRequestHandler("tools/call", async (request) => {
        const { name, arguments: args = {} } = request.params;
        return (await callTool(name, args as Record<string, unknown>, session, server)) as never;
      });
      return server;
    },
    endSession(session: Session) {
      servers.get(session.id)?.stopListening();
      servers.delete(session.id);
      void options.registry.endSession(session);
    },
  };

  async function callTool(name: string, args: Record<string, unknown>, session: Session, server: Server): Promise<ToolResult> {
    const entry = options.stepfiles.byId(name);
    if (entry?.unreadable) return renderReply({ kind: "failed", run: "", state: "failed", error: entry.unreadable });
    if (entry) return renderReply(await options.registry.start(entry.loaded, args, session, elicitationApprover(server, options.approvalTimeoutMs)));
    if (name === "stepgate_call" || name === "stepgate_submit") {
      const run = args.run;
      if (typeof run !== "string" || run === "") return usage(`${name} needs run, the run id a stepfile tool returned`);
      if (name === "stepgate_call") {
        if (typeof args.operation !== "string") return usage("stepgate_call needs operation, one the current step lists");
        return renderReply(await options.registry.call(run, session, args.operation, args.arguments ?? {}));
      }
      if (!("output" in args)) return usage("stepgate_submit needs output, the step's output as JSON");
      return renderReply(await options.registry.submit(run, session, args.output));
    }
    return usage(`unknown tool ${name}`);
  }
}

function toolList(stepfiles: readonly LoadedStepfile[]) {
  return [
    ...stepfiles.map((s) => ({
      name: s.doc.id,
      ...(s.doc.title ? { title: s.doc.title } : {}),
      description: s.doc.description ?? s.doc.title ?? `Run the stepfile ${s.doc.id}`,
      inputSchema: s.doc.inputs,
    })),
    ...(stepfiles.length > 0 ? RUN_TOOLS : []),
  ];
}

function usage(text: string): ToolResult {
  return { content: [{ type: "text", text }], structuredContent: { error: "InvalidRequest", message: text }, isError: true };
}
