// What the engine needs from remote tools, as a small interface: the engine
// never touches the network, it asks a Toolbox (built by src/tools at
// preflight) to make calls, and records what comes back.

export interface OperationView {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** One call that reached its tool: the evidence gates see, and what the ledger records. */
export interface CallOutcome {
  /** Parsed JSON when the response was JSON, else its text. */
  result: unknown;
  /** The response as text, for the client (before select and truncation). */
  text: string;
  isError: boolean;
  tool: string;
  host: string;
  status: number | null;
  durationMs: number;
  credential: string | null;
  responseHash: string;
  responseLength: number;
  /** Requests sent for it, the seed's retries included; absent where a tool does not count them. */
  attempts?: number;
}

/** Where an operation's requests go, for the record of a call that got no usable answer. */
export interface CallTarget {
  tool: string;
  host: string;
  credential: string | null;
}

export interface RetryNotice {
  operation: string;
  attempt: number;
  status: number | null;
  waitMs: number;
}

export interface VerifierVerdict {
  pass: boolean;
  message?: string;
}

export interface Toolbox {
  operation(name: string): OperationView | undefined;
  /** Problems with the arguments under the operation's schema; empty when they are fine. */
  checkArguments(name: string, args: unknown): string[];
  /** The tool, host and credential an operation's calls go to; undefined for an unknown operation. */
  target(name: string): CallTarget | undefined;
  /** One request (with its retries); rejects when it got no usable answer (ToolCallFailed, or an error that ends the run). */
  call(name: string, args: Record<string, unknown>, onRetry: (notice: RetryNotice) => void): Promise<CallOutcome>;
  /** What the client is shown of a result: the `select` value, or the whole result. */
  shown(name: string, outcome: CallOutcome): string;
  verify(tool: string, payload: Record<string, unknown>, onRetry: (notice: RetryNotice) => void): Promise<VerifierVerdict>;
  close(): Promise<void>;
}

/** A stepfile without tools: every operation is unknown. */
export const emptyToolbox: Toolbox = {
  operation: () => undefined,
  checkArguments: () => [],
  target: () => undefined,
  call: (name) => Promise.reject(new Error(`no operation ${name}`)),
  shown: (_, outcome) => outcome.text,
  verify: (tool) => Promise.reject(new Error(`no verifier ${tool}`)),
  close: () => Promise.resolve(),
};
