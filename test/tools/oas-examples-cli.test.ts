// Real-world OpenAPI documents from @readme/oas-examples (petstore, 3.0 JSON;
// train-travel, 3.1 YAML), fetched by url + sha256 from a loopback server and
// called through stepgate_call against a loopback API: what went over the
// wire is what the documents describe.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanUp, json, oneStep, serve, startRun, structured, text } from "./cli-run.js";

afterEach(cleanUp);

const examples = dirname(createRequire(import.meta.url).resolve("@readme/oas-examples/package.json"));
const PETSTORE = readFileSync(join(examples, "3.0/json/petstore.json"));
const TRAINS = readFileSync(join(examples, "3.1/yaml/train-travel.yaml"));
const digest = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

const TRIP = "4f4e4e1-c824-4d63-b37a-d8d698862f1d";
const BOOKING = "1725ff48-ab45-4bb5-9d02-88745177dedb";

async function setUp() {
  const docs = await serve((req, _body, res) => {
    if (req.url === "/petstore.json") res.writeHead(200, { "content-type": "application/json" }).end(PETSTORE);
    else if (req.url === "/train-travel.yaml") res.writeHead(200, { "content-type": "application/yaml" }).end(TRAINS);
    else json(res, 404, { error: "no such document" });
  });
  // Answers what the tests look for in replies; what was sent is checked from `received`.
  const api = await serve((req, body, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/v2/pet/7") json(res, 200, { id: 7, name: "Rex", photoUrls: [] });
    else if (path === "/v2/pet/findByStatus") json(res, 200, [{ id: 7, name: "Rex", status: "sold" }]);
    else if (req.method === "POST") json(res, 200, { created: JSON.parse(body) as unknown });
    else json(res, 200, { path });
  });
  const stepfile = oneStep(
    "real-documents",
    {
      credentials: {
        pets: { kind: "api_key", hosts: [api.host], description: "Petstore key." },
        trains: { kind: "bearer", hosts: [api.host], description: "Train travel token." },
      },
      tools: {
        petstore: {
          // The document's own servers (petstore.swagger.io) are ignored: `server` decides.
          openapi: { server: `${api.origin}/v2`, url: `${docs.origin}/petstore.json`, sha256: digest(PETSTORE) },
          exposes: ["findPetsByStatus", "getPetById", "addPet"],
          credential: "pets",
        },
        trains: {
          openapi: { server: `${api.origin}/tt`, url: `${docs.origin}/train-travel.yaml`, sha256: digest(TRAINS) },
          exposes: ["get-trips", "get-booking", "create-booking"],
          credential: "trains",
        },
      },
    },
    { tools: ["findPetsByStatus", "getPetById", "addPet", "get-trips", "get-booking", "create-booking"] },
  );
  const run = await startRun(stepfile, {}, { env: { PETS_API_KEY: "pets-key-1", TRAINS_API_KEY: "trains-token-1" } });
  expect(structured(run.first)).toMatchObject({ state: "running", step: { step: "work" } });
  return { run, api, docs };
}

/** The request as the API saw it: method, path, query as pairs, and the headers a test names. */
function seen(r: { method: string; path: string; headers: Record<string, string>; body: string }) {
  const url = new URL(r.path, "http://x");
  return { method: r.method, path: url.pathname, query: [...url.searchParams], headers: r.headers, body: r.body };
}

describe("oas-examples documents served on loopback", () => {
  it("petstore 3.0 JSON: array query exploded, integer path parameter, $ref request body, api_key in its header", async () => {
    const { run, api, docs } = await setUp();
    expect(docs.received.map((r) => r.path)).toEqual(["/petstore.json", "/train-travel.yaml"]);

    expect(text(await run.call("findPetsByStatus", { status: ["available", "sold"] }))).toContain('"status":"sold"');
    expect(text(await run.call("getPetById", { petId: 7 }))).toContain('"name":"Rex"');
    const pet = { name: "Rex", photoUrls: ["https://example.com/rex.png"], category: { id: 1, name: "dogs" } };
    expect(text(await run.call("addPet", { body: pet }))).toContain('"created"');
    // Refused by the operation's schema before any request: petId is an integer.
    const refused = await run.call("getPetById", { petId: "seven" });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("petId");

    const [byStatus, byId, added, ...rest] = api.received.map(seen);
    expect(rest).toEqual([]);
    expect(byStatus).toMatchObject({ method: "GET", path: "/v2/pet/findByStatus", query: [["status", "available"], ["status", "sold"]] });
    expect(byId).toMatchObject({ method: "GET", path: "/v2/pet/7", query: [] });
    // getPetById's scheme is apiKey in header `api_key`; the other two name oauth2, sent as Bearer.
    expect(byId!.headers.api_key).toBe("pets-key-1");
    expect(byId!.headers.authorization).toBeUndefined();
    expect(byStatus!.headers.authorization).toBe("Bearer pets-key-1");
    expect(added).toMatchObject({ method: "POST", path: "/v2/pet", headers: { "content-type": "application/json" } });
    expect(JSON.parse(added!.body)).toEqual(pet);
  });

  it("train-travel 3.1 YAML: query parameters, a path parameter that cannot climb, a JSON body, bearer token", async () => {
    const { run, api } = await setUp();
    const trip = { origin: "efdbb9d1-02c2-4bc3-afb7-6788d8782b1e", destination: "b2e783e1-c824-4d63-b37a-d8d698862f1d", date: "2024-02-01T09:00:00Z", bicycles: true };
    expect(structured(await run.call("get-trips", trip)).state).toBe("running");
    expect(text(await run.call("get-booking", { bookingId: BOOKING }))).toContain(`/tt/bookings/${BOOKING}`);
    await run.call("get-booking", { bookingId: "../../admin?x=1#y" });
    const booking = { trip_id: TRIP, passenger_name: "Ada Lovelace", has_bicycle: true, has_dog: false };
    expect(text(await run.call("create-booking", { body: booking }))).toContain("Ada Lovelace");

    const [trips, one, hostile, created, ...rest] = api.received.map(seen);
    expect(rest).toEqual([]);
    expect(trips).toMatchObject({ method: "GET", path: "/tt/trips" });
    expect(Object.fromEntries(trips!.query)).toEqual({ origin: trip.origin, destination: trip.destination, date: trip.date, bicycles: "true" });
    expect(one).toMatchObject({ method: "GET", path: `/tt/bookings/${BOOKING}`, query: [] });
    // One path segment, whatever it holds: no climbing, no query, no fragment.
    expect(hostile).toMatchObject({ method: "GET", query: [] });
    expect(api.received[2]!.path).toBe("/tt/bookings/..%2F..%2Fadmin%3Fx%3D1%23y");
    expect(created).toMatchObject({ method: "POST", path: "/tt/bookings", headers: { "content-type": "application/json" } });
    expect(JSON.parse(created!.body)).toEqual(booking);
    expect(api.received.every((r) => r.headers.authorization === "Bearer trains-token-1")).toBe(true);
  });
});
