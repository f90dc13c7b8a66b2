// Approve gates through MCP elicitation: the person sees the gate's message
// and the output, and approves or says why not. Two protocol styles:
// - 2025-11-25: Stepgate pushes elicitation/create within the submit call and
//   waits for the answer (approver `ask`).
// - 2026-07-28: a server cannot send requests of its own, so the submit call
//   answers with an input-required result; the client asks the person and
//   repeats the call with the answers (approver `between-calls`). The checked
//   output and the other gates' verdicts stay in the run; the echoed
//   requestState only names the run and the wait, and is HMAC-signed so a
//   client cannot point answers at a wait it was not asked about.
// On a client that cannot be asked, runs of stepfiles with approve gates fail
// preflight (item `approval`).
import { randomBytes } from "node:crypto";
import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities, createRequestStateCodec, inputRequired, inputResponse, type InputRequiredResult, PROTOCOL_VERSION_META_KEY, type RequestStateCodec, type Server, type ServerContext } from "@modelcontextprotocol/server";
import type { ApprovalAnswer, ApprovalRequest, Approver } from "../engine/context.js";
import type { ApprovalAnswers } from "../engine/approval-wait.js";
import { hashJson } from "../format/identity.js";

/**
 * The approver for the run a tools/call starts. On 2026-07-28 the client's
 * capabilities come with each request (its `_meta` envelope, which `ctx`
 * carries), on a 2025 session from initialize: read per request, so one
 * server pinned to a 2026-07-28 stdio connection sees what each call declares.
 */
export function elicitationApprover(server: Server, ctx: ServerContext, timeoutMs: number): Approver | undefined {
  // (The SDK types the envelope as {}; these are the two keys 2026-07-28 requires of it.)
  const envelope = ctx.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities; [PROTOCOL_VERSION_META_KEY]?: string } | undefined;
  const capabilities = envelope ? envelope[CLIENT_CAPABILITIES_META_KEY] : server.getClientCapabilities();
  if (!capabilities?.elicitation) return undefined;
  if ((envelope ? envelope[PROTOCOL_VERSION_META_KEY] : server.getNegotiatedProtocolVersion()) === "2026-07-28") return { kind: "between-calls" };
  return {
    kind: "ask",
    async approve(request) {
      // The person's wait is bounded like any pause in a run.
      const answer = await server.elicitInput({ mode: "form", ...approvalForm(request) }, { timeout: timeoutMs });
      return answerFrom(answer.action, answer.content);
    },
  };
}

/** The form a person answers, the same in both protocol styles. */
function approvalForm({ step, gate, message, output }: ApprovalRequest) {
  return {
    message: `${message}\n\nStep ${step} (gate ${gate}) submitted this output:\n${JSON.stringify(output, null, 2)}`,
    requestedSchema: {
      type: "object" as const,
      properties: {
        approved: { type: "boolean" as const, title: "Approve this output?" },
        reason: { type: "string" as const, title: "Why not (shown to the agent)" },
      },
      required: ["approved"],
    },
  };
}

function answerFrom(action: "accept" | "decline" | "cancel", given: unknown): ApprovalAnswer {
  const content = (given && typeof given === "object" ? given : {}) as { approved?: unknown; reason?: unknown };
  if (action === "accept" && content.approved === true) return { approved: true };
  const reason = typeof content.reason === "string" && content.reason.trim() !== "" ? content.reason : action === "cancel" ? "the person dismissed the request" : "the person did not approve";
  return { approved: false, reason };
}

/** What the echoed requestState carries: which wait of which run, and which call asked. */
interface ApprovalState {
  run: string;
  pending: string;
  tool: string;
  /** Hash of the asking call's name and arguments; a call that starts runs must repeat it exactly. */
  call: string;
}

/** A repeated call's answers, read back against the wait its requestState names. */
export interface RepeatedCall {
  run: string;
  /** True when the call's name and arguments are those of the call that asked. */
  sameCall: boolean;
  answers: ApprovalAnswers;
}

/**
 * The 2026-07-28 rounds of approve gates for one process. The key is random
 * per process: a wait lives in this process's memory, so state minted by
 * another process (or before a restart) could not be resumed anyway. The
 * state expires with --run-idle-ms, the bound on any wait in a run.
 */
export class ApprovalRounds {
  private readonly codec: RequestStateCodec<ApprovalState>;

  constructor(timeoutMs: number) {
    this.codec = createRequestStateCodec<ApprovalState>({ key: randomBytes(32), ttlSeconds: Math.max(1, Math.ceil(timeoutMs / 1000)) });
  }

  /** For ServerOptions.requestState.verify: the SDK refuses state that fails it before any handler runs. */
  readonly verify = (state: string, ctx: ServerContext): Promise<ApprovalState> => this.codec.verify(state, ctx);

  /** The input-required result asking the person about every gate still unanswered in the wait. */
  async ask(tool: string, args: Record<string, unknown>, reply: { run: string; pending: string; requests: ApprovalRequest[] }): Promise<InputRequiredResult> {
    const inputRequests = Object.fromEntries(reply.requests.map((request) => [request.gate, inputRequired.elicit(approvalForm(request))]));
    const requestState = await this.codec.mint({ run: reply.run, pending: reply.pending, tool, call: fingerprint(tool, args) });
    return inputRequired({ inputRequests, requestState });
  }

  /**
   * The answers a repeated call carries, or undefined for a first call (no
   * verified state, or state minted for another tool). An entry that is not
   * an elicitation answer counts as unanswered, so the person is asked again.
   */
  read(ctx: ServerContext, tool: string, args: Record<string, unknown>): RepeatedCall | undefined {
    const state = ctx.mcpReq.requestState<ApprovalState>();
    if (!state || typeof state !== "object" || state.tool !== tool) return undefined;
    const answers: Record<string, ApprovalAnswer> = {};
    for (const key of Object.keys(ctx.mcpReq.inputResponses ?? {})) {
      const view = inputResponse(ctx.mcpReq.inputResponses, key);
      if (view.kind === "elicit") answers[key] = answerFrom(view.action, view.content);
    }
    return { run: state.run, sameCall: state.call === fingerprint(tool, args), answers: { pending: state.pending, answers } };
  }
}

function fingerprint(tool: string, args: Record<string, unknown>): string {
  return hashJson({ tool, arguments: args });
}
