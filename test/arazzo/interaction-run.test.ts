// An Arazzo interaction step (form mode, the 1.2 draft's actor in the loop)
// served directly by the built CLI over stdio: the agent is shown the
// prompt with its context filled in from the earlier step, submits the
// person's answer as `payload`, the person approves it through MCP
// elicitation, and the run goes on to the mechanical step after it and
// finishes with the workflow's outputs and a ledger.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budget } from "../support/budget.js";
import { REPO_ROOT, stepgateBin } from "../support/paths.js";
import { cliEnvironment } from "../support/stepgate.js";
import { startPetStore, type PetStore } from "./support/pet-store.js";

const KEY = "refund-store-key";
let store: PetStore;
let dir: string;

beforeAll(async () => {
  store = await startPetStore(KEY);
  dir = mkdtempSync(join(tmpdir(), "stepgate-arazzo-refund-"));
  writeFileSync(join(dir, "store.openapi.json"), JSON.stringify(store.document));
  writeFileSync(join(dir, "refund.arazzo.yaml"), readFileSync(resolve(REPO_ROOT, "test/arazzo/fixtures/refund-approval.arazzo.yaml"), "utf8"));
  const placed = await fetch(`${store.url}/orders`, { method: "POST", headers: { "content-type": "application/json", "x-store-key": KEY }, body: JSON.stringify({ petId: 7, quantity: 2 }) });
  expect(placed.status).toBe(201);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("an Arazzo interaction step", () => {
  it(
    "asks through the agent, is approved by the person, and the run finishes",
    async () => {
      const asked: string[] = [];
      const client = new Client({ name: "arazzo-interaction", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
      client.setRequestHandler("elicitation/create", async (request) => {
        asked.push(String((request.params as { message: string }).message));
        return { action: "accept", content: { approved: true } };
      });
      const ledgers = join(dir, "ledgers");
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [stepgateBin(), "--ledger-dir", ledgers, join(dir, "refund.arazzo.yaml")],
        env: { ...cliEnvironment(), STORE_KEY_API_KEY: KEY },
        stderr: "pipe",
      });
      await client.connect(transport);
      try {
        const start = await client.callTool({ name: "refund-order", arguments: { orderId: "ord-1" } });
        const reply = start.structuredContent as { run: string; state: string; completed: string[]; step: { step: string; instructions: string } };
        expect(reply.state, JSON.stringify(start.content)).toBe("running");
        expect(reply.completed).toEqual(["read-order"]);
        const step = { run: reply.run, ...reply.step };
        expect(step.step).toBe("ask-refund");
        expect(step.instructions).toContain("How many of the ordered pets should be refunded, and why?");
        expect(step.instructions).toContain("- status: placed");
        expect(step.instructions).toContain("- ordered: 2");
        const wrong = await client.callTool({ name: "stepgate_submit", arguments: { run: step.run, output: { payload: { refund: 1 } } } });
        expect((wrong.structuredContent as { state: string }).state).toBe("running");
        expect(asked).toEqual([]);
        const done = await client.callTool({ name: "stepgate_submit", arguments: { run: step.run, output: { payload: { refund: 1, reason: "one ran away" } } } });
        const finished = done.structuredContent as { state: string; outputs: Record<string, unknown> };
        expect(finished.state, JSON.stringify(done.content)).toBe("finished");
        expect(asked).toHaveLength(1);
        expect(asked[0]).toContain("How many of the ordered pets should be refunded, and why?");
        expect(finished.outputs.outputs).toEqual({ refund: 1, reason: "one ran away" });
        const records = readFileSync(join(ledgers, readdirSync(ledgers)[0]!), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { type: string; step?: string; gate?: string });
        expect(records.filter((r) => r.type === "gate" && r.gate === "approved")).toHaveLength(1);
        expect(records.at(-1)!.type).toBe("run_finished");
        expect(store.requests.filter((r) => r.path === "/orders/ord-1")).toHaveLength(2);
      } finally {
        await client.close();
      }
    },
    budget({ starts: 1, replies: 3 }),
  );
});
