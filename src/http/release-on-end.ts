// A POST answered over SSE is still in progress after the handler returns:
// the tool result comes later on the stream. To hold a session for exactly
// as long as its reply is being sent, the body is passed through a stream
// that calls `release` when it ends, fails or the client goes away.
//
// The same pass-through lets the tools/list cache see the SDK's answer as it
// is sent, without reading ahead of the client (a tee would: the adaptor then
// finds the whole body ready and frames it with a Content-Length instead of
// chunked, so the answer's bytes would change).

export interface BodyWatch {
  /** Each chunk as the client's side reads it. */
  chunk?(value: Uint8Array): void;
  /** Once: the body was read to its end (true), or failed or was cancelled (false). */
  end(whole: boolean): void;
}

/** The same response, whose body reports to `watch` as it is read. */
export function watchBody(response: Response, watch: BodyWatch): Response {
  if (!response.body) {
    watch.end(true);
    return response;
  }
  const reader = response.body.getReader();
  let ended = false;
  const end = (whole: boolean) => {
    if (ended) return;
    ended = true;
    watch.end(whole);
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end(true);
          controller.close();
        } else {
          watch.chunk?.(value);
          controller.enqueue(value);
        }
      } catch (error) {
        end(false);
        controller.error(error);
      }
    },
    cancel(reason) {
      end(false);
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The same response, whose body calls `release` once when it is done or cancelled. */
export function releaseOnEnd(response: Response, release: () => void): Response {
  return watchBody(response, { end: release });
}

/** Answer with `answer()`, calling `release` when its body is done, or at once if it throws. */
export async function answerHeld(release: () => void, answer: () => Promise<Response>): Promise<Response> {
  try {
    return releaseOnEnd(await answer(), release);
  } catch (error) {
    release();
    throw error;
  }
}
