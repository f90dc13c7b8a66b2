// The names Stepgate exports under: the semantic conventions' own (MCP,
// HTTP client, errors) from the official package, and Stepgate's, under
// `stepgate.`, for what no convention names (runs, steps, gates).
// docs/observability.md lists each with what it holds.
export {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_NETWORK_TRANSPORT,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
  ATTR_URL_FULL,
  METRIC_HTTP_CLIENT_REQUEST_DURATION,
} from "@opentelemetry/semantic-conventions";
export {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_SESSION_ID,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  ATTR_URL_TEMPLATE,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_MCP_SERVER_SESSION_DURATION,
} from "@opentelemetry/semantic-conventions/incubating";

export const ATTR_RUN_ID = "stepgate.run.id";
export const ATTR_RUN_OUTCOME = "stepgate.run.outcome";
export const ATTR_STEPFILE_ID = "stepgate.stepfile.id";
export const ATTR_STEPFILE_IDENTITY = "stepgate.stepfile.identity";
export const ATTR_STEP_ID = "stepgate.step.id";
export const ATTR_STEP_ATTEMPT = "stepgate.step.attempt";
export const ATTR_STEP_MECHANICAL = "stepgate.step.mechanical";
export const ATTR_STEP_OUTCOME = "stepgate.step.outcome";
export const ATTR_GATE_ID = "stepgate.gate.id";
export const ATTR_GATE_KIND = "stepgate.gate.kind";
export const ATTR_GATE_VERDICT = "stepgate.gate.verdict";
export const ATTR_OPERATION = "stepgate.operation";
export const ATTR_VERIFIER = "stepgate.verifier";
export const ATTR_APPROVAL_MODE = "stepgate.approval.mode";
export const ATTR_RETRY_ATTEMPT = "stepgate.retry.attempt";
export const ATTR_RETRY_WAIT_MS = "stepgate.retry.wait_ms";

export const EVENT_GATE = "stepgate.gate";
export const EVENT_RETRY = "stepgate.retry";

export const METRIC_RUNS_STARTED = "stepgate.runs.started";
export const METRIC_RUNS_FINISHED = "stepgate.runs.finished";
export const METRIC_RUNS_FAILED = "stepgate.runs.failed";
export const METRIC_RUNS_ACTIVE = "stepgate.runs.active";
export const METRIC_GATE_FAILURES = "stepgate.gate.failures";
export const METRIC_SESSIONS_ACTIVE = "stepgate.sessions.active";

/** The conventions' advice for durations in seconds (mcp.server.*.duration, http.client.request.duration). */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60, 120, 300];
