// An event stream is handed on as it arrives (an MCP server may hold one open
// for as long as a run lasts), so the two checks a whole body gets before it
// is handed on (readCapped's byte cap, the Scrubber) are made here chunk by
// chunk instead. The deadline is waived only for the server's own stream
// (the seed's "an MCP server's event stream has no deadline"); a stream that
// answers a request is that request's body, and ends with it.
import { type Readable, Transform, pipeline } from "node:stream";
import { ResponseTooLarge, ToolCallFailed } from "../errors.js";
import type { Deadline } from "./deadline.js";
import type { Scrubber } from "./credentials.js";
import { discardBody } from "./read-body.js";

/**
 * Returns `body` as it should reach the caller: with the credential's value
 * replaced even when a chunk boundary splits it, and failing with
 * ResponseTooLarge once more than `maxBytes` have arrived over the stream's
 * whole life. Ending the returned stream (cancel, error) closes `body`.
 */
export function guardEventStream(body: Readable, contentLength: string | undefined, scrub: Scrubber, maxBytes: number, what: string): Readable {
  // Same rule as readCapped: a declared length over the cap is refused before a byte is read.
  if (contentLength !== undefined && Number(contentLength) > maxBytes) {
    discardBody(body);
    throw new ResponseTooLarge(what, maxBytes);
  }
  const scrubbing = scrub.stream();
  let total = 0;
  const guarded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      // Counted as received, before scrubbing changes the length.
      total += chunk.length;
      if (total > maxBytes) {
        done(new ResponseTooLarge(what, maxBytes));
        return;
      }
      const out = scrubbing.write(chunk);
      done(null, out.length > 0 ? out : undefined);
    },
    flush(done) {
      const rest = scrubbing.end();
      done(null, rest.length > 0 ? rest : undefined);
    },
  });
  // pipeline destroys the socket's body when `guarded` errors or is
  // destroyed by its reader, and carries a socket error or abort on to the reader.
  pipeline(body, guarded, () => undefined);
  return guarded;
}

/**
 * Ends `stream` with ToolCallFailed (`no complete response within ...`, as
 * a body that misses its deadline) when `deadline` expires before the stream
 * ends, so a server that trickles keep-alives forever cannot hold a call
 * open. The deadline is stopped once the stream closes.
 */
export function endAtDeadline(stream: Readable, deadline: Deadline, what: string, timeoutMs: number): void {
  const expire = () => {
    if (deadline.expired()) stream.destroy(new ToolCallFailed(what, null, "", `no complete response within ${timeoutMs} ms`));
  };
  deadline.signal.addEventListener("abort", expire, { once: true });
  stream.once("close", () => {
    deadline.disarm();
    deadline.signal.removeEventListener("abort", expire);
  });
}
