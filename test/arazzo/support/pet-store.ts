// A loopback pet store for the Arazzo tests: a node:http server on
// 127.0.0.1 serving its own OpenAPI document (at /openapi.json, its server
// URL the port it listens on) and the operations the test workflows call.
// Every request is recorded, so a test can say what each runner sent.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface PetStore {
  url: string;
  document: Record<string, unknown>;
  requests: { method: string; path: string; body: unknown }[];
  /** Bodies POSTed to /receipts, in order. */
  receipts: unknown[];
  /** Forget every order, request and receipt, so the next runner starts where the last one did. */
  reset(): void;
  close(): Promise<void>;
}

const PETS = [
  { id: 7, name: "Rex", status: "available", tags: ["dog"] },
  { id: 9, name: "Tom", status: "available", tags: ["cat"] },
  { id: 12, name: "Old Bob", status: "sold", tags: ["dog"] },
];

export function petStoreDocument(url: string): Record<string, unknown> {
  const pet = { type: "object", properties: { id: { type: "integer" }, name: { type: "string" }, status: { type: "string" }, tags: { type: "array", items: { type: "string" } } } };
  const order = { type: "object", properties: { id: { type: "string" }, petId: { type: "integer" }, quantity: { type: "integer" }, status: { type: "string" } } };
  const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
  return {
    openapi: "3.1.0",
    info: { title: "Loopback pet store", version: "1.0.0" },
    servers: [{ url }],
    components: { securitySchemes: { storeKey: { type: "apiKey", in: "header", name: "X-Store-Key", description: "The pet store's API key" } } },
    security: [{ storeKey: [] }],
    paths: {
      "/pets": {
        get: {
          operationId: "findPets",
          parameters: [{ name: "status", in: "query", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "pets", ...json({ type: "array", items: pet }) } },
        },
      },
      "/pets/{petId}": {
        get: {
          operationId: "getPet",
          parameters: [{ name: "petId", in: "path", required: true, schema: { type: "integer" } }],
          responses: { "200": { description: "a pet", ...json(pet) }, "404": { description: "no such pet" } },
        },
      },
      "/pets/{petId}/holds": {
        post: {
          operationId: "holdPet",
          parameters: [{ name: "petId", in: "path", required: true, schema: { type: "integer" } }],
          responses: { "201": { description: "held", ...json({ type: "object" }) } },
        },
      },
      "/orders": {
        post: {
          operationId: "placeOrder",
          requestBody: { required: true, ...json({ type: "object", required: ["petId", "quantity"], properties: { petId: { type: "integer" }, quantity: { type: "integer" } } }) },
          responses: { "201": { description: "placed", ...json(order) } },
        },
      },
      "/receipts": {
        post: {
          operationId: "sendReceipt",
          requestBody: { required: true, ...json({ type: "object" }) },
          responses: { "200": { description: "kept", ...json({ type: "object", properties: { kept: { type: "boolean" } } }) } },
        },
      },
      "/orders/{orderId}": {
        get: {
          operationId: "getOrder",
          parameters: [{ name: "orderId", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "an order", ...json(order) } },
        },
      },
    },
  };
}

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function startPetStore(apiKey: string): Promise<PetStore> {
  const requests: PetStore["requests"] = [];
  const receipts: unknown[] = [];
  const orders = new Map<string, Record<string, unknown>>();
  let document: Record<string, unknown> = {};
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const payload = await body(req);
      requests.push({ method: req.method ?? "", path: url.pathname + url.search, body: payload });
      const send = (status: number, value?: unknown) => {
        res.writeHead(status, value === undefined ? {} : { "content-type": "application/json" });
        res.end(value === undefined ? undefined : JSON.stringify(value));
      };
      if (url.pathname === "/openapi.json") return send(200, document);
      if (req.headers["x-store-key"] !== apiKey) return send(401, { error: "a valid X-Store-Key is needed" });
      let m: RegExpExecArray | null;
      if (req.method === "GET" && url.pathname === "/pets") return send(200, PETS.filter((p) => p.status === url.searchParams.get("status")));
      if (req.method === "GET" && (m = /^\/pets\/(\d+)$/.exec(url.pathname))) {
        const pet = PETS.find((p) => p.id === Number(m![1]));
        return pet ? send(200, pet) : send(404, { error: "no such pet" });
      }
      if (req.method === "POST" && (m = /^\/pets\/(\d+)\/holds$/.exec(url.pathname))) return send(201, { held: Number(m[1]) });
      if (req.method === "POST" && url.pathname === "/orders") {
        const { petId, quantity } = payload as { petId: number; quantity: number };
        const order = { id: `ord-${orders.size + 1}`, petId, quantity, status: "placed" };
        orders.set(order.id, order);
        return send(201, order);
      }
      if (req.method === "POST" && url.pathname === "/receipts") {
        receipts.push(payload);
        return send(200, { kept: true });
      }
      if (req.method === "GET" && (m = /^\/orders\/([^/]+)$/.exec(url.pathname))) {
        const order = orders.get(decodeURIComponent(m[1]!));
        return order ? send(200, order) : send(404, { error: "no such order" });
      }
      return send(404, { error: "no such route" });
    })();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  document = petStoreDocument(url);
  return {
    url,
    document,
    requests,
    receipts,
    reset: () => {
      orders.clear();
      requests.length = 0;
      receipts.length = 0;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
