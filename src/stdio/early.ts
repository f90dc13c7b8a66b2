// The stdio session's first answers, written before the MCP SDK is loaded.
//
// Why by hand: a client starting Stepgate waits for initialize and
// tools/list before anything else, and importing the SDK (with zod, whose
// schemas are built at import) is most of a cold start's CPU; Node 20 has
// no code cache for ES modules to make that cheaper. The answers are
// fixed bytes, so this reads stdin from the start, answers them, and hands
// the session to the SDK server as if it had read every byte itself.
//
// When: a 2026-07-28 `server/discover` as the first line is answered as soon
// as it is read, before and whatever the stepfile load does, as its answer
// does not depend on the stepfiles (readEarly is given it at start; main in
// src/cli.ts starts it before the serving code is even imported). Why: the
// SDK's client sends it to a disposable process of its own, which it stops
// (stdin end, SIGTERM) before it even spawns the session's, so waiting for
// the load there cost a whole load before the session could start. A refused
// stepfile still ends the process with exit 1 and its error on stderr; a
// client that has the discover answer then sees the pipe close. Everything
// else waits for answer(), which the server calls once every stepfile is
// loaded: initialize too, though it does not depend on them either, so a
// 2025 client whose stepfile is refused is never told the server started.
// SIGTERM is not handled in stdio mode, so a stopped probe process ends at
// once, mid-load, having written only the discover answer.
//
// The contract: a line is answered here only if the SDK would answer it
// with exactly the bytes written here: the first message an `initialize`
// whose params are a strict subset of what the SDK accepts, asking for a
// protocol version it accepts as asked, then `tools/list` with no params
// to honour; `notifications/initialized` is let through. A 2026-07-28
// opening is answered the same way: a `server/discover`, a `tools/list`
// with no params but the `_meta` envelope, or the one then the other, each
// carrying exactly the envelope the SDK accepts (the revision has no
// initialize and no notification before a request; the SDK's client probes
// with server/discover on a process of its own, then opens the session's
// pipe with tools/list; a client probing in place sends both on one pipe,
// and its tools/list is answered once the stepfiles are loaded). Anything
// else (another method, a batch, a line that does not parse, unusual params)
// ends the early phase once the stepfiles are loaded: that line and every
// later one go to the SDK unchanged and in order, and the SDK's serveStdio
// picks the era from them (src/stdio/serve.ts). At the handover the SDK
// transport reads the initialize (or server/discover) request and the
// notifications again (its answer to it is dropped: the client has it), so
// the SDK server holds the client's capabilities (elicitation, ...) exactly
// as if it had served the session from the start; a 2025 session's
// tools/list lines answered here are not replayed. A 2026-07-28 tools/list
// is: it is what pins the revision in serveStdio (a 2025 initialize after it
// is then refused, as the SDK refuses it), and the SDK's answer to it is
// dropped. test/cli/stdio-early.test.ts holds these bytes to the SDK's.
import { PassThrough, type Readable, type Writable } from "node:stream";
import { hasOnlyKeys, isEmptyParams, isObject, isRequest, parseJsonObject, plainToolsListId, type JsonRpcId } from "../jsonrpc/shapes.js";

/** The 2025-era protocol versions the SDK negotiates by echoing them (its SUPPORTED_PROTOCOL_VERSIONS; a test holds them equal). */
export const EARLY_PROTOCOL_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];

export interface EarlyAnswers {
  /** The initialize result as JSON for a version in EARLY_PROTOCOL_VERSIONS. */
  initializeResult(protocolVersion: string): string;
  /** The tools/list result as JSON. */
  toolsListResult(): string;
  /** The tools/list result as JSON as the SDK sends it on 2026-07-28: toolsListResult's with the revision's result fields. */
  modernToolsListResult(): string;
}

/** What the SDK transport takes over. */
export interface Handover {
  /** The bytes the SDK transport reads: the replayed messages, the unanswered ones, then the rest of stdin. */
  input: Readable;
  /** The id of the initialize request answered here: the SDK's own answer to it must not be written. */
  answeredInitialize?: JsonRpcId;
  /** The id of the server/discover request answered here, likewise. */
  answeredDiscover?: JsonRpcId;
  /** The id of the 2026-07-28 tools/list request answered here, likewise. */
  answeredModernToolsList?: JsonRpcId;
}

export interface EarlyReader {
  /** The stepfiles are loaded: answer what can be answered until anything else arrives, or stdin ends, or both answers are written; then hand over. */
  answer(answers: EarlyAnswers): Promise<Handover>;
  /** Stop reading stdin, unless it was handed over: the server did not start. */
  stop(): void;
}

const NEWLINE = 0x0a;
const NOTIFICATION_KEYS = new Set(["jsonrpc", "method", "params"]);

/**
 * Starts reading `stdin` now, answering a first server/discover at once
 * with `discoverResult` (the 2026-07-28 result as JSON) and keeping every
 * other byte until answer() is called.
 */
export function readEarly(stdin: Readable, stdout: Writable, discoverResult: string): EarlyReader {
  let pending: Buffer = Buffer.alloc(0);
  /** Lines the SDK reads first, at the handover. */
  const replay: Buffer[] = [];
  let ended = false;
  let answers: EarlyAnswers | undefined;
  let initializeId: JsonRpcId | undefined;
  let discoverId: JsonRpcId | undefined;
  let modernToolsListId: JsonRpcId | undefined;
  let handOver: ((handover: Handover) => void) | undefined;
  let handedOver = false;

  const onData = (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    advance();
  };
  const onEnd = () => {
    ended = true;
    advance();
  };
  stdin.on("data", onData);
  stdin.once("end", onEnd);
  // A pipe that fails is read as ended; the SDK transport then closes the session.
  stdin.once("error", onEnd);

  const detach = () => {
    stdin.off("data", onData);
    stdin.off("end", onEnd);
    stdin.off("error", onEnd);
  };

  /**
   * Answers complete lines while they are early ones: before the stepfiles
   * are loaded, only a first server/discover. Hands over at the first that
   * is not, once tools/list is answered (in either era), or at the end of
   * stdin; otherwise waits for the next chunk (a client waits for the
   * initialize answer before it sends more) or for answer().
   */
  function advance() {
    if (handedOver) return;
    for (let newline = pending.indexOf(NEWLINE); newline >= 0; newline = pending.indexOf(NEWLINE)) {
      const line = pending.subarray(0, newline + 1);
      const message = parseJsonObject(line.toString("utf8"));
      if (replay.length === 0 && message && isPlainModern(message, "server/discover")) {
        discoverId = message.id as JsonRpcId;
        write(discoverId, discoverResult);
        replay.push(line);
        pending = pending.subarray(newline + 1);
        // Its tools/list may follow on this pipe (or the client was probing, and closes it).
        continue;
      }
      // The rest waits for the stepfiles (pending keeps it).
      if (!handOver || !answers) return;
      if (initializeId === undefined && message && isPlainModern(message, "tools/list")) {
        // A 2026-07-28 opening's tools/list, first or after server/discover: replayed, as it pins the revision.
        modernToolsListId = message.id as JsonRpcId;
        write(modernToolsListId, answers.modernToolsListResult());
        replay.push(line);
        pending = pending.subarray(newline + 1);
        // The answer is out: load the SDK now, while the client reads it.
        return finish();
      } else if (discoverId !== undefined) {
        return finish();
      } else if (initializeId === undefined) {
        const version = message && initializeVersion(message);
        if (version === undefined) return finish();
        initializeId = message!.id as JsonRpcId;
        write(initializeId, answers.initializeResult(version));
        replay.push(line);
      } else if (message && isInitializedNotification(message)) {
        replay.push(line);
      } else if (message && plainToolsListId(message) !== undefined) {
        write(message.id as JsonRpcId, answers.toolsListResult());
        pending = pending.subarray(newline + 1);
        // Both first answers are out: load the SDK now, while the client reads them.
        return finish();
      } else {
        return finish();
      }
      pending = pending.subarray(newline + 1);
    }
    if (ended && handOver) finish();
  }

  function finish() {
    const resolve = handOver!;
    handOver = undefined;
    handedOver = true;
    detach();
    const input = new PassThrough();
    for (const line of replay) input.write(line);
    if (pending.length > 0) input.write(pending);
    if (ended || stdin.readableEnded) {
      // As stdin would: the end comes in a later turn than the data, so the
      // SDK answers what it can before it sees the end (and closes).
      if (input.readableLength === 0) input.end();
      // ('resume', not 'data': a data listener would start the flow itself.)
      else input.once("resume", () => setImmediate(() => input.end()));
    } else {
      // pipe() adds its own data listener at once, so no chunk falls between the two.
      stdin.pipe(input);
      // pipe() does not pass errors on: the SDK transport hears of them as it did from stdin.
      stdin.once("error", (error) => input.destroy(error));
    }
    resolve({
      input,
      ...(initializeId === undefined ? {} : { answeredInitialize: initializeId }),
      ...(discoverId === undefined ? {} : { answeredDiscover: discoverId }),
      ...(modernToolsListId === undefined ? {} : { answeredModernToolsList: modernToolsListId }),
    });
  }

  function write(id: JsonRpcId, result: string) {
    // The SDK's framing: JSON.stringify of {result, jsonrpc, id}, one line.
    stdout.write(`{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n`);
  }

  return {
    answer(given) {
      answers = given;
      return new Promise((resolve) => {
        handOver = resolve;
        advance();
      });
    },
    stop() {
      if (handedOver) return;
      detach();
      stdin.pause();
    },
  };
}

function isInitializedNotification(message: Record<string, unknown>): boolean {
  return message.jsonrpc === "2.0" && message.method === "notifications/initialized" && !("id" in message) && hasOnlyKeys(message, NOTIFICATION_KEYS) && isEmptyParams(message.params);
}

const PARAMS_KEYS = new Set(["protocolVersion", "capabilities", "clientInfo"]);
const CLIENT_INFO_KEYS = new Set(["name", "version", "title", "websiteUrl", "description"]);
const DISCOVER_PARAMS_KEYS = new Set(["_meta"]);
const ENVELOPE = { version: "io.modelcontextprotocol/protocolVersion", client: "io.modelcontextprotocol/clientInfo", capabilities: "io.modelcontextprotocol/clientCapabilities" } as const;
const ENVELOPE_KEYS = new Set(Object.values(ENVELOPE));

/**
 * A 2026-07-28 request for `method` (server/discover, tools/list) whose
 * params are only a `_meta` envelope the SDK surely accepts (the revision,
 * plain client info and known capabilities, no other keys): the SDK answers
 * it with fixed bytes, whoever asks.
 */
function isPlainModern(message: Record<string, unknown>, method: string): boolean {
  if (!isRequest(message, method)) return false;
  const params = message.params;
  if (!isObject(params) || !hasOnlyKeys(params, DISCOVER_PARAMS_KEYS) || !isObject(params._meta)) return false;
  const meta = params._meta;
  if (!hasOnlyKeys(meta, ENVELOPE_KEYS) || meta[ENVELOPE.version] !== "2026-07-28") return false;
  const capabilities = meta[ENVELOPE.capabilities];
  return plainClientInfo(meta[ENVELOPE.client]) && isObject(capabilities) && knownCapabilities(capabilities);
}

function plainClientInfo(clientInfo: unknown): boolean {
  if (!isObject(clientInfo) || !hasOnlyKeys(clientInfo, CLIENT_INFO_KEYS) || typeof clientInfo.name !== "string" || typeof clientInfo.version !== "string") return false;
  return Object.values(clientInfo).every((value) => typeof value === "string");
}

/**
 * The protocol version the SDK would answer with, for an initialize request
 * whose params its schema surely accepts (checked more strictly than it
 * does: unknown keys, `_meta`, icons and the deprecated tasks capability go
 * to the SDK); undefined for anything else.
 */
function initializeVersion(message: Record<string, unknown>): string | undefined {
  if (!isRequest(message, "initialize")) return undefined;
  const params = message.params;
  if (!isObject(params) || !hasOnlyKeys(params, PARAMS_KEYS)) return undefined;
  const { protocolVersion, capabilities, clientInfo } = params;
  if (typeof protocolVersion !== "string" || !EARLY_PROTOCOL_VERSIONS.includes(protocolVersion)) return undefined;
  if (!plainClientInfo(clientInfo)) return undefined;
  return isObject(capabilities) && knownCapabilities(capabilities) ? protocolVersion : undefined;
}

const objectOfObjects = (value: unknown, keys?: ReadonlySet<string>) => isObject(value) && (!keys || hasOnlyKeys(value, keys)) && Object.values(value).every(isObject);
const SAMPLING_KEYS = new Set(["context", "tools"]);
const ELICITATION_KEYS = new Set(["form", "url"]);
const ROOTS_KEYS = new Set(["listChanged"]);

/** Client capabilities in the shapes the SDK's ClientCapabilities schema accepts. */
function knownCapabilities(capabilities: Record<string, unknown>): boolean {
  return Object.entries(capabilities).every(([key, value]) => {
    switch (key) {
      case "experimental":
      case "extensions":
        return objectOfObjects(value);
      case "sampling":
        return objectOfObjects(value, SAMPLING_KEYS);
      case "elicitation": {
        if (!objectOfObjects(value, ELICITATION_KEYS)) return false;
        const form = (value as Record<string, unknown>).form as Record<string, unknown> | undefined;
        return form?.applyDefaults === undefined || typeof form.applyDefaults === "boolean";
      }
      case "roots":
        return isObject(value) && hasOnlyKeys(value, ROOTS_KEYS) && (value.listChanged === undefined || typeof value.listChanged === "boolean");
      default:
        return false;
    }
  });
}
