import { validateDraft, draftFindings } from "../src/authoring/validate.js";
const rules = { grants: { credentials: [], settings: [], hosts: [] }, publicUrl: () => true } as never;
function steps(n: number) {
  const out = ['stepgate: "1"', "id: big", "description: big", "inputs: { type: object, properties: { name: { type: string } } }", "steps:"];
  for (let i = 0; i < n; i++) out.push(`  - id: s${i}`, `    instructions: "Do {{inputs.name}} ${i}."`, "    produces: { type: object, required: [a], properties: { a: { type: string }, b: { type: array, items: { type: integer } } } }", "    gates:", `      - { id: g${i}, message: m, predicate: { in: [{ var: inputs.name }, { var: output.a }] } }`, `      - { id: h${i}, schema: { properties: { a: { minLength: 1, pattern: "^[a-z]+$" } } } }`);
  return out.join("\n") + "\n";
}
function openapi(n: number) {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) paths[`/p${i}/{id}`] = { get: { operationId: `op${i}`, parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { x: { type: "string" }, y: { type: "array", items: { type: "integer" } } } } } } } } } };
  return JSON.stringify({ stepgate: "1", id: "api", description: "d", inputs: { type: "object" }, tools: { api: { openapi: { server: "https://api.example.com", document: { openapi: "3.1.0", info: { title: "t", version: "1" }, paths } }, exposes: Object.keys(paths).map((_, i) => `op${i}`) } }, steps: [{ id: "a", instructions: "x", tools: ["op0"], produces: { type: "object" }, gates: [{ id: "g", schema: { type: "object" } }] }] }, null, 1);
}
const limit = Number(process.argv[2] ?? 262144);
for (const [name, make] of [["steps", steps], ["openapi", openapi]] as const) {
  let n = 1;
  while (Buffer.byteLength(make(n * 2)) <= limit) n *= 2;
  let lo = n, hi = n * 2;
  while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (Buffer.byteLength(make(mid)) <= limit) lo = mid; else hi = mid; }
  const text = make(lo);
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    const v = validateDraft(text, rules, await draftFindings(text, { userAgent: "x", timeoutMs: 1000, maxBytes: 1e6 } as never, rules));
    console.log(name, lo, Buffer.byteLength(text), Math.round(performance.now() - t), "ms", (v as { valid?: boolean }).valid, Object.keys(v).join(","));
  }
}
