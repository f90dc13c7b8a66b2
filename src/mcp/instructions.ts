// What the server tells the client's agent about driving a run.

export const SERVER_INSTRUCTIONS = `Stepgate runs procedures (stepfiles) one step at a time. Each stepfile is a tool: call it with its inputs to start a run. The reply gives the run id and the current step: its instructions, the operations it may call, and the JSON Schema its output must match.

- Call the step's operations only through stepgate_call (run, operation, arguments). Stepgate makes the request itself and returns the result. Your own tools do not count: gates compare your output with what stepgate_call returned.
- Take values from those results exactly as returned; gates check them against the real responses.
- Finish the step with stepgate_submit (run, output). If it fails, the reply lists every failing gate with its diagnosis and the attempts left: fix every listed problem and submit again.
- The next step is shown only after the current one passes. After the last step the reply holds every step's accepted output.
- A reply whose state is "failed" ended the run; its text starts with the error type.`;
