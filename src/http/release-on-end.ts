// A POST answered over SSE is still in progress after the handler returns:
// the tool result comes later on the stream. To hold a session for exactly
// as long as its reply is being sent, the body is passed through a stream
// that calls `release` when it ends, fails or the client goes away.

/** The same response, whose body calls `release` once when it is done or cancelled. */
export function releaseOnEnd(response: Response, release: () => void): Response {
  if (!response.body) {
    release();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
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
