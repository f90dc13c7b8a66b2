// No credential value reaches a reply (text or structuredContent), a line on
// stderr or a ledger record, through the built CLI, even from APIs that echo
// every header and query back in bodies and error messages, and across a
// redirect to a declared host the credential does not cover.
import type { IncomingMessage } from "node:http";
import { afterEach, expect, it } from "vitest";
import { cleanUp, json, serve, startRun, structured, text } from "./cli-run.js";

afterEach(cleanUp);

const KEY = "key-5f1e/+=Zq";
const TOKEN = "tok-8c2d7e41";
const BASIC_USER = "ada";
const BASIC_PASSWORD = "pw-77b1c9e";
const BASIC = `${BASIC_USER}:${BASIC_PASSWORD}`;

/** Every spelling of a secret that an echo could carry. */
const FORMS = [KEY, encodeURIComponent(KEY), new URLSearchParams({ v: KEY }).toString().slice(2), TOKEN, BASIC, Buffer.from(BASIC).toString("base64"), BASIC_PASSWORD];

function echoOf(req: IncomingMessage) {
  return { url: req.url, headers: req.headers };
}

/** The password of an HTTP Basic header, as an API that names what it refused would quote it. */
function basicPassword(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization ?? "";
  return auth.startsWith("Basic ") ? Buffer.from(auth.slice(6), "base64").toString("utf8").split(":")[1] : undefined;
}

const get = (operationId: string, security?: unknown[]) => ({ get: { operationId, ...(security ? { security } : {}) } });
const doc = (paths: Record<string, unknown>, securitySchemes: Record<string, unknown> = {}) => ({ openapi: "3.1.0", info: { title: "Echo", version: "1" }, paths, components: { securitySchemes } });

it("keeps api_key (header, query, cookie), bearer and basic values out of replies, stderr and the ledger", async () => {
  const other = await serve((req, _body, res) => json(res, 200, echoOf(req)));
  const api = await serve((req, _body, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const echo = JSON.stringify(echoOf(req));
    if (path.endsWith("/fail")) {
      const pw = basicPassword(req);
      res.writeHead(401, { "content-type": "text/plain", "x-echo": encodeURIComponent(echo) });
      res.end(`refused ${echo}${pw ? ` (password ${pw} is wrong)` : ""}`);
    } else if (path.endsWith("/moved")) {
      // Sends the request's own query (with a query-placed key) on to the other host.
      res.writeHead(302, { location: `${other.origin}/landing?from=${encodeURIComponent(req.url ?? "")}`, "x-echo": encodeURIComponent(echo) }).end();
    } else json(res, 200, echoOf(req), { "x-echo": encodeURIComponent(echo) });
  });

  const stepfile = {
    stepgate: "1",
    id: "secrets",
    inputs: { type: "object", properties: {} },
    credentials: {
      keys: { kind: "api_key", hosts: [api.host], description: "An API key." },
      token: { kind: "bearer", hosts: [api.host], description: "A bearer token." },
      login: { kind: "basic", hosts: [api.host], description: "A user and password." },
    },
    tools: {
      keyed: {
        openapi: {
          server: `${api.origin}/k`,
          document: doc(
            {
              "/header": get("keyHeader", [{ inHeader: [] }]),
              "/query": get("keyQuery", [{ inQuery: [] }]),
              "/cookie": get("keyCookie", [{ inCookie: [] }]),
              "/fail": get("keyFail", [{ inQuery: [] }]),
              "/moved": get("keyMoved", [{ inQuery: [] }]),
            },
            {
              inHeader: { type: "apiKey", in: "header", name: "X-Api-Key" },
              inQuery: { type: "apiKey", in: "query", name: "api_key" },
              inCookie: { type: "apiKey", in: "cookie", name: "session" },
            },
          ),
        },
        exposes: ["keyHeader", "keyQuery", "keyCookie", "keyFail", "keyMoved"],
        credential: "keys",
      },
      tokened: { openapi: { server: `${api.origin}/t`, document: doc({ "/echo": get("tokenEcho"), "/fail": get("tokenFail"), "/moved": get("tokenMoved") }) }, exposes: ["tokenEcho", "tokenFail", "tokenMoved"], credential: "token" },
      based: { openapi: { server: `${api.origin}/b`, document: doc({ "/echo": get("basicEcho"), "/fail": get("basicFail"), "/moved": get("basicMoved") }) }, exposes: ["basicEcho", "basicFail", "basicMoved"], credential: "login" },
      // Declared, so redirects may reach it; no credential covers it.
      elsewhere: { openapi: { server: other.origin, document: doc({ "/landing": get("landing") }) }, exposes: ["landing"] },
    },
    steps: [
      {
        id: "work",
        instructions: "Call everything.",
        tools: ["keyHeader", "keyQuery", "keyCookie", "keyFail", "keyMoved", "tokenEcho", "tokenFail", "tokenMoved", "basicEcho", "basicFail", "basicMoved"],
        produces: { type: "object" },
        gates: [{ id: "any", schema: { type: "object" } }],
      },
    ],
  };
  const run = await startRun(stepfile, {}, { env: { KEYS_API_KEY: KEY, TOKEN_API_KEY: TOKEN, LOGIN_API_KEY: BASIC } });
  const replies = [run.first];
  for (const op of ["keyHeader", "keyQuery", "keyCookie", "keyFail", "keyMoved", "tokenEcho", "tokenFail", "tokenMoved", "basicEcho", "basicFail", "basicMoved"]) {
    replies.push(await run.call(op));
  }
  replies.push(await run.submit({}));
  expect(structured(replies.at(-1)!).state).toBe("finished");
  const { ledgerText, stderr } = await run.finish();

  // The values really went out, each where its placement says, so the checks below are not vacuous.
  const sent = api.received.map((r) => ({ path: r.path, key: r.headers["x-api-key"], cookie: r.headers.cookie, authorization: r.headers.authorization }));
  expect(sent).toEqual([
    { path: "/k/header", key: KEY, cookie: undefined, authorization: undefined },
    { path: `/k/query?api_key=${encodeURIComponent(KEY)}`, key: undefined, cookie: undefined, authorization: undefined },
    { path: "/k/cookie", key: undefined, cookie: `session=${KEY}`, authorization: undefined },
    { path: `/k/fail?api_key=${encodeURIComponent(KEY)}`, key: undefined, cookie: undefined, authorization: undefined },
    { path: `/k/moved?api_key=${encodeURIComponent(KEY)}`, key: undefined, cookie: undefined, authorization: undefined },
    { path: "/t/echo", key: undefined, cookie: undefined, authorization: `Bearer ${TOKEN}` },
    { path: "/t/fail", key: undefined, cookie: undefined, authorization: `Bearer ${TOKEN}` },
    { path: "/t/moved", key: undefined, cookie: undefined, authorization: `Bearer ${TOKEN}` },
    { path: "/b/echo", key: undefined, cookie: undefined, authorization: `Basic ${Buffer.from(BASIC).toString("base64")}` },
    { path: "/b/fail", key: undefined, cookie: undefined, authorization: `Basic ${Buffer.from(BASIC).toString("base64")}` },
    { path: "/b/moved", key: undefined, cookie: undefined, authorization: `Basic ${Buffer.from(BASIC).toString("base64")}` },
  ]);
  // The redirects reached the other host, with no credential in any form.
  expect(other.received).toHaveLength(3);
  const received = JSON.stringify(other.received);
  for (const form of FORMS) expect(received, `the other host received ${form}`).not.toContain(form);

  for (const form of FORMS) {
    replies.forEach((reply, i) => expect(JSON.stringify(reply), `reply ${i} holds ${form}`).not.toContain(form));
    expect(ledgerText, `the ledger holds ${form}`).not.toContain(form);
    expect(stderr, `stderr holds ${form}`).not.toContain(form);
  }
  // The echoes did come back (redacted), so a reply that said nothing would not pass.
  expect(JSON.stringify(replies[1])).toContain("x-api-key");
  // An error result names its status once, then the body as the API sent it (redacted).
  expect(text(replies[10]!)).toMatch(/^HTTP 401: refused .*\(password \[redacted\] is wrong\)$/);
  expect(ledgerText).toContain('"credential":"keys"');
});
