// A stepfile of one agent step whose one operation, GET /slow on the API at
// `origin` (a test's startApiFixture with a delay), keeps a run busy for as
// long as that API waits: for tests of what happens to a run mid-call when
// its session or the server ends.
export function slowStepfile(origin: string): string {
  return `stepgate: "1"
id: slow
description: One step whose operation answers only after the API's delay.
inputs: { type: object }
tools:
  api:
    openapi:
      server: "${origin}"
      document:
        openapi: 3.1.0
        info: { title: Slow, version: "1" }
        paths: { /slow: { get: { operationId: getSlow, responses: { "200": { description: ok } } } } }
    exposes: [getSlow]
steps:
  - id: wait
    tools: [getSlow]
    instructions: Call getSlow.
    produces: { type: object }
    gates: [{ id: any, schema: { type: object } }]
`;
}
