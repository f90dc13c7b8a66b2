// The pieces --mutate decides with, each on its own: which arrays' order
// matters, the rounding instructions ask for, the equivalents a correct
// agent could write, the fields an API's document promises, and the seed.
import { describe, expect, it } from "vitest";
import { loadStepfileText } from "../../src/loader/load.js";
import { documentedRequired } from "../../src/offline/mutate/evidence/documented.js";
import { evidenceValues } from "../../src/offline/mutate/evidence-values.js";
import type { Place } from "../../src/offline/mutate/kind.js";
import { instantRewritten } from "../../src/offline/mutate/kinds/instant-rewritten.js";
import { instantShifted } from "../../src/offline/mutate/kinds/instant-shifted.js";
import { tieSwapped } from "../../src/offline/mutate/kinds/tie-swapped.js";
import { orderTest } from "../../src/offline/mutate/order.js";
import { seeded } from "../../src/offline/mutate/random.js";
import { roundingAsked } from "../../src/offline/mutate/round-to.js";
import { schemaView } from "../../src/offline/mutate/schema-view.js";

function place(value: unknown, extra: Partial<Place> = {}): Place {
  return { output: {}, path: ["x"], value, schema: schemaView({}, {}), field: "x", optional: false, ordered: false, roundTo: undefined, evidence: evidenceValues([]), random: seeded(1), ...extra };
}

describe("--mutate's pieces", () => {
  it("reads order from a gate reading by position, from order words near the field, and from numbered items", () => {
    const byIndex = orderTest({ id: "s", produces: {}, gates: [{ id: "g", message: "m", predicate: { "==": [{ var: "output.ranked.0" }, "a"] } }] });
    expect(byIndex(["ranked"], {}, [])).toBe(true);
    expect(byIndex(["other"], {}, [])).toBe(false);
    const worded = orderTest({ id: "s", produces: {}, instructions: "List the sites. Then rank the counties by share, highest first." });
    expect(worded(["counties"], {}, [])).toBe(true);
    expect(worded(["sites"], {}, [])).toBe(false);
    const plain = orderTest({ id: "s", produces: {} });
    expect(plain(["books"], {}, [{ week: 1 }, { week: 2 }])).toBe(true);
    expect(plain(["books"], {}, [{ week: 2 }, { week: 1 }])).toBe(false);
    expect(plain(["items"], { description: "sorted by date, newest first" }, [])).toBe(true);
  });

  it("reads the decimal places the instructions ask for", () => {
    expect(roundingAsked("the share, rounded to 3\ndecimals (0.342 means 34.2%)")).toBe(3);
    expect(roundingAsked("Round the rate to two decimal places.")).toBe(2);
    expect(roundingAsked("amounts to the nearest cent")).toBe(2);
    expect(roundingAsked("Give the rate as returned.")).toBeUndefined();
  });

  it("writes an instant the other ways RFC 3339 allows, as equivalents, and shifts it as wrong outputs", () => {
    expect(instantRewritten.derive(place("2026-11-28T14:07:31Z")).map((d) => [d.value, d.equivalent])).toEqual([
      ["2026-11-28T14:07:31+00:00", true],
      ["2026-11-28T14:07:31.000Z", true],
    ]);
    expect(instantRewritten.derive(place("2026-11-28T14:07:31.000+00:00")).map((d) => d.value)).toEqual(["2026-11-28T14:07:31.000Z", "2026-11-28T14:07:31+00:00"]);
    expect(instantRewritten.derive(place("not a time"))).toEqual([]);
    expect(instantShifted.derive(place("2026-11-28T00:07:31.42Z")).map((d) => [d.value, d.equivalent])).toEqual([
      ["2026-11-28T01:07:31.42Z", undefined],
      ["2026-11-27T00:07:31.42Z", undefined],
    ]);
  });

  it("swaps neighbours of a ranking of ids that tie on the field it is sorted by, after the asked rounding", () => {
    const output = { counties: [{ code: "019", share: 0.231 }, { code: "075", share: 0.2054 }, { code: "001", share: 0.2049 }], ranking: ["019", "075", "001"] };
    const tied = tieSwapped.derive(place(output.ranking, { output, ordered: true, roundTo: 3 }));
    expect(tied).toEqual([{ value: ["019", "001", "075"], change: "items [1] and [2] swapped: they tie on share", equivalent: true }]);
    expect(tieSwapped.derive(place(output.ranking, { output, ordered: true }))).toEqual([]);
    expect(tieSwapped.derive(place(output.ranking, { output, ordered: false, roundTo: 3 }))).toEqual([]);
  });

  it("knows the result fields an inline OpenAPI document requires", () => {
    const stepfile = loadStepfileText(
      `stepgate: "1"
id: doc
inputs: { type: object }
tools:
  api:
    openapi:
      server: https://api.example.com
      document:
        openapi: 3.1.0
        info: { title: t, version: "1" }
        paths:
          /files:
            get:
              operationId: listFiles
              responses:
                "200":
                  description: ok
                  content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/File" } } } }
        components:
          schemas:
            File: { type: object, required: [filename], properties: { filename: { type: string }, patch: { type: string } } }
    exposes: [listFiles]
steps:
  - id: s
    do: { calls: [{ id: f, operation: listFiles, arguments: {} }], output: { n: { length: { var: responses.f } } } }
    produces: { type: object }
`,
      "doc",
    );
    const required = documentedRequired(stepfile.doc);
    expect(required("listFiles", [0, "filename"])).toBe(true);
    expect(required("listFiles", [0, "patch"])).toBe(false);
    expect(required("other", [0, "filename"])).toBe(false);
  });

  it("takes another value of the field a value came from in the evidence", () => {
    const evidence = evidenceValues([{ label: "calls.list", value: { invoices: [{ id: "in_1", status: "paid" }, { id: "in_2", status: "open" }] } }]);
    expect(evidence.othersOf("in_1", "paid_ids")).toEqual(["in_2"]);
    expect(evidence.othersOf("paid", "status")).toEqual(["open"]);
    expect(evidence.othersOf("nowhere", "status")).toEqual(["paid", "open"]);
    expect(evidence.seen("in_")).toBe(true);
  });

  it("makes the same choices for the same seed and scope", () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    expect(seeded(1, "case", 2).shuffle(items)).toEqual(seeded(1, "case", 2).shuffle(items));
    expect(seeded(1, "case", 2).shuffle(items)).not.toEqual(seeded(2, "case", 2).shuffle(items));
  });
});
