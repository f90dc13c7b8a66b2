// JSON-RPC message shapes a transport answers itself, before the MCP SDK
// (src/stdio/early.ts over stdio, src/http/tools-list-cache.ts over HTTP):
// checked more strictly than the SDK does, so whatever passes here is a
// message the SDK would answer the same way.

export type JsonRpcId = string | number;

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);

/** The JSON object in `text`, or undefined when it is not one (a batch, a scalar, not JSON). */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isObject(value) ? value : undefined;
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
export const hasOnlyKeys = (value: Record<string, unknown>, keys: ReadonlySet<string>) => Object.keys(value).every((key) => keys.has(key));
export const isEmptyParams = (params: unknown) => params === undefined || (isObject(params) && Object.keys(params).length === 0);
const isId = (id: unknown): id is JsonRpcId => typeof id === "string" || Number.isSafeInteger(id);

/** A request for `method` with a string or safe-integer id and no keys beyond jsonrpc, id, method and params. */
export function isRequest(message: Record<string, unknown>, method: string): message is Record<string, unknown> & { id: JsonRpcId } {
  return message.jsonrpc === "2.0" && message.method === method && isId(message.id) && hasOnlyKeys(message, REQUEST_KEYS);
}

/** The id of `{"jsonrpc":"2.0","id":...,"method":"tools/list"}` with empty or no params (nothing to honour), else undefined. */
export function plainToolsListId(message: Record<string, unknown>): JsonRpcId | undefined {
  return isRequest(message, "tools/list") && isEmptyParams(message.params) ? message.id : undefined;
}
