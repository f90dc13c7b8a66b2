// A loopback library for the two-document Arazzo tests: a node:http server
// on 127.0.0.1 with its own OpenAPI document (its server URL the port it
// listens on), HTTP basic security on every operation, and the three
// operations the fixtures in test/arazzo/fixtures/library/ call. Every
// request is recorded with its Authorization header, so a test can say what
// each runner sent and which credential reached the API.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface Library {
  url: string;
  document: Record<string, unknown>;
  requests: { method: string; path: string; body: unknown; authorization: string | undefined }[];
  reset(): void;
  close(): Promise<void>;
}

const BOOKS: Record<string, { isbn: string; title: string }> = {
  "9780141439518": { isbn: "9780141439518", title: "Pride and Prejudice" },
};

export function libraryDocument(url: string): Record<string, unknown> {
  const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
  const book = { type: "object", properties: { isbn: { type: "string" }, title: { type: "string" } } };
  const loan = { type: "object", properties: { id: { type: "string" }, isbn: { type: "string" } } };
  return {
    openapi: "3.1.0",
    info: { title: "Loopback library", version: "1.0.0" },
    servers: [{ url }],
    components: { securitySchemes: { libraryAuth: { type: "http", scheme: "basic", description: "The library's reader account (user:password)" } } },
    security: [{ libraryAuth: [] }],
    paths: {
      "/hours": { get: { operationId: "getHours", responses: { "200": { description: "today's hours", ...json({ type: "object", properties: { open: { type: "boolean" }, closes: { type: "string" } } }) } } } },
      "/books/{isbn}": {
        get: {
          operationId: "getBook",
          parameters: [{ name: "isbn", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "a book", ...json(book) }, "404": { description: "no such book" } },
        },
      },
      "/loans": {
        post: {
          operationId: "createLoan",
          requestBody: { required: true, ...json({ type: "object", required: ["isbn"], properties: { isbn: { type: "string" } } }) },
          responses: { "201": { description: "lent", ...json(loan) } },
        },
      },
    },
  };
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/** `credential`: the `user:password` the library accepts; any other Authorization is answered 401. */
export async function startLibrary(credential: string): Promise<Library> {
  const requests: Library["requests"] = [];
  let loans = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const path = req.url ?? "/";
      requests.push({ method: req.method ?? "", path, body, authorization: req.headers.authorization });
      const send = (status: number, value?: unknown) => {
        res.writeHead(status, value === undefined ? {} : { "content-type": "application/json" });
        res.end(value === undefined ? undefined : JSON.stringify(value));
      };
      if (req.headers.authorization !== `Basic ${Buffer.from(credential).toString("base64")}`) return send(401, { error: "unauthorized" });
      if (req.method === "GET" && path === "/hours") return send(200, { open: true, closes: "18:00" });
      const book = /^\/books\/([^/]+)$/.exec(path);
      if (req.method === "GET" && book) return BOOKS[book[1]!] ? send(200, BOOKS[book[1]!]) : send(404, { error: "no such book" });
      if (req.method === "POST" && path === "/loans") return send(201, { id: `loan-${++loans}`, isbn: (body as { isbn?: string }).isbn });
      send(404, { error: "no such route" });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    document: libraryDocument(url),
    requests,
    reset: () => {
      requests.length = 0;
      loans = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
