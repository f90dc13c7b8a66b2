// The two tools that drive a run, with their argument schemas.

export const RUN_TOOLS = [
  {
    name: "stepgate_call",
    description: "Call one of the current step's operations. Stepgate makes the request and returns its result.",
    inputSchema: {
      type: "object",
      required: ["run", "operation"],
      properties: {
        run: { type: "string", description: "The run id." },
        operation: { type: "string", description: "An operation the current step lists." },
        arguments: { type: "object", description: "The operation's arguments, matching its schema." },
      },
    },
  },
  {
    name: "stepgate_submit",
    description: "Submit the current step's output. Returns the next step, the failing gates with their diagnoses, or the run's outputs.",
    inputSchema: {
      type: "object",
      required: ["run", "output"],
      properties: {
        run: { type: "string", description: "The run id." },
        output: { type: "object", description: "The step's output, matching its output schema." },
      },
    },
  },
] as const;
