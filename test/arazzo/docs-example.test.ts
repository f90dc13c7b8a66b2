// docs/arazzo.md's worked example cannot rot: the document converts, the
// steps the page shows are the steps written, and the stepfile with the
// page's agent step added loads.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { convertDocument } from "../../src/arazzo/convert.js";
import { readArazzo } from "../../src/arazzo/document.js";
import { stepfileText } from "../../src/arazzo/write.js";
import { loadStepfileText } from "../../src/loader/load.js";
import { REPO_ROOT } from "../support/paths.js";

const page = readFileSync(join(REPO_ROOT, "docs", "arazzo.md"), "utf8");
const blocks = [...page.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
const file = join(REPO_ROOT, "docs", "arazzo", "order-status.arazzo.yaml");

describe("docs/arazzo.md's worked example", () => {
  it("shows the Arazzo steps of the document, the steps it converts to, and an agent step that loads with them", async () => {
    const text = readFileSync(file, "utf8");
    const [arazzoSteps, converted, agentStep] = blocks;
    expect((parse(arazzoSteps!) as { steps: unknown }).steps).toEqual((parse(text) as { workflows: { steps: unknown }[] }).workflows[0]!.steps);
    const conversion = await convertDocument(readArazzo(text, file), { documentPath: file });
    expect(conversion.refused).toEqual([]);
    const stepfile = conversion.converted[0]!.stepfile as { steps: unknown[] };
    expect(parse(converted!)).toEqual({ steps: stepfile.steps });
    const extended = { ...stepfile, steps: [...stepfile.steps.slice(0, 2), ...(parse(agentStep!) as unknown[]), ...stepfile.steps.slice(2)] };
    const loaded = loadStepfileText(stepfileText(extended), "order-status with an agent step");
    expect(loaded.doc.steps.map((s) => s.id)).toEqual(["read-order", "read-pet", "tell-customer", "outputs"]);
    expect(stringify(extended)).toContain("names-the-pet");
  });
});
