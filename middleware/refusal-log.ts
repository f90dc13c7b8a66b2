// An operator whose client gets 403 or 413 should not have to guess which
// guard said no: every answer of 400 or above leaves one line in the log.
// Only the method, path and status: header values stay out of logs.
//
// A request whose connection is gone before its answer (the client closed
// it, or the server timed it out) gets nothing, whatever status the app
// chose: its line says what happened instead of naming a status never sent.
import type { Context, MiddlewareHandler } from "hono";

export interface RefusalLogOptions {
  log: (line: string) => void;
  /** Why the request's connection is gone before its answer ("the client closed the connection", say), or undefined while it is open. */
  gone?: (c: Context) => string | undefined;
}

/**
 * Logs `<status> <method> <path>` for every response with a status of 400 or more,
 * and `<method> <path>: <why>; nothing was sent` for a request whose connection went away first.
 *
 * @example
 * app.use(refusalLog({ log: (line) => process.stderr.write(`${line}\n`) }));
 */
export function refusalLog(options: RefusalLogOptions): MiddlewareHandler {
  return async function refusalLog(c, next) {
    await next();
    const gone = options.gone?.(c);
    if (gone !== undefined) options.log(`${c.req.method} ${c.req.path}: ${gone} before the answer; nothing was sent`);
    else if (c.res.status >= 400) options.log(`${c.res.status} ${c.req.method} ${c.req.path}`);
  };
}
