// The check before a person approves, through the built CLI over stdio with
// a client that supports elicitation, against the shop API on 127.0.0.1:
// when the approved output would give the refund POST arguments its schema
// refuses (a total over the operation's maximum), nobody is asked, no refund
// is requested, and the agent is told why; a total the schema accepts is
// asked about, approved and refunded.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startApiFixture, type ApiFixture } from "../support/api-fixture.js";
import { SHOP } from "../support/shop.js";
import { spawnStepgate, type SpawnedStepgate } from "../support/stepgate.js";

const open: Array<SpawnedStepgate | ApiFixture> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

/** The shop API with one order: two items, out of stock, `price` cents each. */
async function shop(price: number) {
  const api = await startApiFixture([
    { method: "GET", path: "/orders/O-1", answers: [{ json: { id: "O-1", status: "paid", items: [{ sku: "A", quantity: 1, price_cents: price, in_stock: false }, { sku: "B", quantity: 1, price_cents: 5, in_stock: true }] } }] },
    { method: "POST", path: "/orders/O-1/refunds", answers: [{ status: 201, json: { id: "R-1", status: "pending", amount_cents: price } }] },
  ]);
  open.push(api);
  const dir = mkdtempSync(join(tmpdir(), "stepgate-pre-approval-"));
  const file = join(dir, "refund-out-of-stock.stepfile.yaml");
  writeFileSync(file, SHOP.replace("server: http://127.0.0.1:8080", `server: ${api.origin}`));
  const asked: string[] = [];
  const server = await spawnStepgate(["--ledger-dir", join(dir, "ledger"), file], {}, { capabilities: { elicitation: { form: {} } } });
  open.push(server);
  server.client.setRequestHandler("elicitation/create", async (request) => {
    asked.push(String((request.params as { message: string }).message));
    return { action: "accept", content: { approved: true } };
  });
  return { api, server, asked };
}

async function decided(server: SpawnedStepgate, total: number) {
  const start = await server.client.callTool({ name: "refund-out-of-stock", arguments: { order_id: "O-1" } });
  const run = (start.structuredContent as { run: string }).run;
  expect((await server.client.callTool({ name: "stepgate_call", arguments: { run, operation: "getOrder", arguments: { order_id: "O-1" } } })).isError).toBeFalsy();
  return server.client.callTool({ name: "stepgate_submit", arguments: { run, output: { skus: ["A"], total_cents: total } } });
}

describe("before a person approves a refund", () => {
  it("asks nobody when the refund POST would be refused, requests nothing, and tells the agent what the schema allows", async () => {
    const { api, server, asked } = await shop(150000);
    const reply = await decided(server, 150000);
    expect(reply.structuredContent).toMatchObject({ state: "running", failures: [{ gate: "person-approves" }] });
    const text = (reply.content as Array<{ text: string }>)[0]!.text;
    expect(text).toContain("person-approves: not asked: with this output, step refund's call create (createRefund) would get arguments its operation refuses (arguments.body.amount_cents must be <= 100000; got 150000)");
    expect(asked).toEqual([]);
    expect(api.received.map((r) => r.method)).toEqual(["GET"]);
  }, 120_000);

  it("asks, and refunds once approved, when the arguments are valid", async () => {
    const { api, server, asked } = await shop(8299);
    const reply = await decided(server, 8299);
    expect(reply.structuredContent).toMatchObject({ state: "finished", outputs: { refund: { refund_id: "R-1", status: "pending", amount_cents: 8299 } } });
    expect(asked).toHaveLength(1);
    expect(api.received.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /orders/O-1", "POST /orders/O-1/refunds"]);
    expect(JSON.parse(api.received[1]!.body)).toEqual({ amount_cents: 8299, reason: "out_of_stock", skus: ["A"] });
  }, 120_000);
});
