// An operator whose client gets 403 or 413 should not have to guess which
// guard said no: every answer of 400 or above leaves one line in the log.
// Only the method, path and status: header values stay out of logs.
import type { MiddlewareHandler } from "hono";

export interface RefusalLogOptions {
  log: (line: string) => void;
}

/**
 * Logs `<status> <method> <path>` for every response with a status of 400 or more.
 *
 * @example
 * app.use(refusalLog({ log: (line) => process.stderr.write(`${line}\n`) }));
 */
export function refusalLog(options: RefusalLogOptions): MiddlewareHandler {
  return async function refusalLog(c, next) {
    await next();
    if (c.res.status >= 400) options.log(`${c.res.status} ${c.req.method} ${c.req.path}`);
  };
}
