// stepgate_outline: markdown procedures to skeleton stepfiles, deterministically.
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { outline, outlineText, slug } from "../../src/authoring/outline.js";
import { rulesIn } from "../../src/authoring/markdown-procedure.js";

const SKILL = `---
name: Release Service
description: Ship a service release safely.
---
# Release a service

Releases happen on weekdays. You MUST have a reviewer.

## Steps

1. Run the test suite. NEVER skip a failing test.
   Note which tests ran.
2. Write the changelog entry.
3. Tag the release. The tag MUST match the version. Always push the tag.

\`\`\`sh
## not a heading
1. not a step, and NEVER a rule
\`\`\`
`;

describe("stepgate_outline", () => {
  it("makes one step per numbered item, with each item's rules as TODO gates and general rules on the last step", () => {
    const o = outline(SKILL);
    const doc = parse(o.stepfile);
    expect(doc).toMatchObject({ stepgate: "1", id: "release-service", title: "Release a service", description: "Ship a service release safely." });
    expect(doc.steps.map((s: { id: string }) => s.id)).toEqual(["run-the-test-suite", "write-the-changelog-entry", "tag-the-release"]);
    expect(doc.steps[0].instructions).toBe("Run the test suite. NEVER skip a failing test.\nNote which tests ran.");
    expect(doc.steps[0].gates).toEqual([{ id: "never-skip-a-failing-test", message: "NEVER skip a failing test.", predicate: expect.stringMatching(/^TODO: /) }]);
    expect(doc.steps[1].gates).toEqual([{ id: "check", message: expect.stringMatching(/^TODO: /), predicate: expect.stringMatching(/^TODO: /) }]);
    expect(doc.steps[2].gates.map((g: { message: string }) => g.message)).toEqual(["The tag MUST match the version.", "Always push the tag.", "You MUST have a reviewer."]);
    expect(doc.steps[2].gates[2].predicate).toContain("whole procedure");
    expect(o).toMatchObject({ steps: 3, rules: 4 });
    expect(o.todos.map((t) => t.path)).toContain("inputs.description");
    expect(o.todos.every((t) => t.text.startsWith("TODO: ") && t.line !== undefined)).toBe(true);
  });

  it("is deterministic", () => {
    expect(outline(SKILL).stepfile).toBe(outline(SKILL).stepfile);
  });

  it("makes one step per second-level heading when there are no numbered items", () => {
    const doc = parse(outline("# Triage\n\n## Read the report\n\nRead it all.\n\n## Label it\n\nALWAYS add a severity label.\n").stepfile);
    expect(doc.id).toBe("triage");
    expect(doc.steps.map((s: { id: string; instructions: string }) => [s.id, s.instructions])).toEqual([
      ["read-the-report", "Read it all."],
      ["label-it", "ALWAYS add a severity label."],
    ]);
    expect(doc.steps[1].gates[0]).toMatchObject({ id: "always-add-a-severity-label", message: "ALWAYS add a severity label." });
  });

  it("keeps a second-level section without numbered items as a step when another section has them", () => {
    const markdown = [
      "# Release notes",
      "",
      "1. Open the tracker.",
      "",
      "## Gather",
      "",
      "Work from the merged list. NEVER include reverts.",
      "",
      "1. Collect the merged changes.",
      "2. Group them by area.",
      "",
      "## Publish",
      "",
      "Post the notes. Always double-check. MUST NOT leak secrets.",
      "",
    ].join("\n");
    const doc = parse(outline(markdown).stepfile);
    expect(doc.steps.map((s: { id: string; instructions?: string; produces: { description: string } }) => [s.id, s.instructions ?? s.produces.description.replace(/^.*From the procedure: /, "mechanical: ")])).toEqual([
      ["open-the-tracker", "Open the tracker."],
      ["collect-the-merged-changes", "Collect the merged changes."],
      ["group-them-by-area", "Group them by area."],
      // Posting is a write: Stepgate makes it, after the step before it passed (issue 27).
      ["publish", "mechanical: Post the notes. Always double-check. MUST NOT leak secrets."],
    ]);
    // Publish's rules are its own gates, not rules "stated for the whole procedure" on Gather's last step;
    // prose around numbered items is outside any step, so its rule goes to the last step, marked to be moved.
    expect(doc.steps[2].gates.map((g: { id: string }) => g.id)).toEqual(["check"]);
    expect(doc.steps[3].gates.map((g: { message: string; predicate: string }) => [g.message, g.predicate.includes("whole procedure")])).toEqual([
      ["Always double-check.", false],
      ["MUST NOT leak secrets.", false],
      ["NEVER include reverts.", true],
    ]);
  });

  it("still gives a skeleton for unstructured or empty text, and skips broken frontmatter", () => {
    const flat = parse(outline("---\nname: [broken\n---\nJust do the thing. Never rush.").stepfile);
    expect(flat.steps).toHaveLength(1);
    expect(flat.steps[0].gates[0].message).toBe("Never rush.");
    expect(flat.description).toMatch(/^TODO: /);
    const empty = parse(outline("").stepfile);
    expect(empty).toMatchObject({ id: "procedure", steps: [{ id: "step" }] });
  });

  it("keeps step ids and gate ids unique and valid", () => {
    const doc = parse(outline("1. Check it. NEVER x.\n2. Check it. NEVER x! NEVER x?\n3. 42 things\n").stepfile);
    expect(doc.steps.map((s: { id: string }) => s.id)).toEqual(["check-it", "check-it-2", "step-42-things"]);
    expect(doc.steps[1].gates.map((g: { id: string }) => g.id)).toEqual(["never-x", "never-x-2"]);
  });
});

describe("rulesIn", () => {
  it("finds MUST, MUST NOT, NEVER, ALWAYS and SHALL sentences, and sentences opening with Never or Always", () => {
    expect(rulesIn("- **You MUST NOT** push to main. Ask first.\n- Always test. Then rest, e.g. sleep.\n* The key shall stay. It SHALL rotate.")).toEqual([
      "You MUST NOT push to main.",
      "Always test.",
      "It SHALL rotate.",
    ]);
  });
});

describe("slug", () => {
  it("gives identifiers the format accepts", () => {
    expect(slug("Überprüfe die API-Antwort!", "step")).toBe("uberprufe-die-api-antwort");
    expect(slug("...", "step")).toBe("step");
    expect(slug("a".repeat(100), "step")).toHaveLength(40);
  });
});

describe("stepgate_outline: fetching steps and whole-word ids", () => {
  it("cuts gate ids at a word boundary without a dangling small word", () => {
    expect(slug("The total MUST equal the sum of the invoices", "rule")).toBe("the-total-must-equal-the-sum");
    expect(slug("List each invoice exactly once and never twice", "rule")).toBe("list-each-invoice-exactly-once");
    expect(slug("supercalifragilisticexpialidocious-and-more-words", "rule", 20)).toBe("supercalifragilistic");
    // A compound word is kept or left out whole (it once gave "...-with-reason-out").
    expect(slug("Refund each missing item with reason out-of-stock", "step")).toBe("refund-each-missing-item-with-reason");
    expect(slug("Refund items with reason out_of_stock", "step")).toBe("refund-items-with-reason-out-of-stock");
    expect(slug("1. fetch the order", "step")).toBe("step-1-fetch-the-order");
    expect(slug("a".repeat(30) + "-bbbbbbbbbbbbbb", "step")).toBe("a".repeat(30));
  });

  it("proposes a tools: stub and a mechanical step when the procedure fetches data first", () => {
    const result = outline(`# Reconcile invoices

1. Fetch the open invoices from the billing API.
2. Compare them with the ledger. The total MUST equal the sum of the invoices.
`);
    const doc = parse(result.stepfile) as { tools: Record<string, unknown>; steps: Array<Record<string, unknown>> };
    expect(Object.keys(doc.tools)).toEqual(["api"]);
    expect(doc.steps[0]).toMatchObject({ do: { calls: [{ id: "fetch", operation: expect.stringContaining("TODO:") }], output: { data: { var: "responses.fetch" } } } });
    expect(doc.steps[0]).not.toHaveProperty("instructions");
    expect(doc.steps[1]).toMatchObject({ instructions: expect.stringContaining("Compare"), gates: [{ id: "the-total-must-equal-the-sum" }] });
    expect(result.todos.map((t) => t.path)).toEqual(expect.arrayContaining(["tools.api.openapi.server", "steps[0].do.calls[0].operation"]));
  });

  it("keeps a procedure that does not start by fetching all agent steps, without tools", () => {
    const doc = parse(outline("1. Write the summary.\n2. Check it.\n").stepfile) as Record<string, unknown>;
    expect(doc).not.toHaveProperty("tools");
  });
});

describe("stepgate_outline: approve gates and the editor's schema line", () => {
  const REFUND = `# Refund a customer

1. Work out the refund. The amount MUST NOT exceed the order total.
2. A finance manager must approve the refund before it is issued.
3. Issue the refund, then confirm the payment went through.

The customer MUST sign off on the refund address.
`;

  it("turns a sentence asking a person to approve, sign off or confirm into an approve gate, asked after the step's checks", () => {
    const o = outline(REFUND);
    const doc = parse(o.stepfile) as { steps: Array<{ gates?: Array<Record<string, unknown>>; do?: unknown }> };
    expect(o.approvals).toBe(1);
    expect(doc.steps[0]!.gates).toEqual([{ id: "the-amount-must-not-exceed", message: "The amount MUST NOT exceed the order total.", predicate: expect.stringMatching(/^TODO: /) }]);
    // Issuing the refund is a write, so Stepgate makes it (step 3, mechanical), and every approval is asked on the
    // step before it, whose output the write is computed from: a general rule asking a person too, not a predicate to write.
    expect(doc.steps[1]!.gates!.at(-1)).toEqual({
      id: "approved",
      approve: { message: "The procedure says: A finance manager must approve the refund before it is issued. The customer MUST sign off on the refund address. Approve the output below?" },
    });
    expect(doc.steps[2]!.do).toBeDefined();
    expect(doc.steps[2]!.gates ?? []).toEqual([]);
    expect(outlineText(o)).toContain("1 approve gate asks a person");
  });

  it("makes a write a mechanical step after the approved step, never a tool of the agent (issue 27)", () => {
    const o = outline(`# Refund out-of-stock items

1. Look up the order and list the items that are out of stock, with the refund for them.
2. Create the refund once a person approves it. The refund MUST be created by Stepgate, NEVER by the agent.
`);
    const doc = parse(o.stepfile) as { tools: { api: { exposes: string[] } }; steps: Array<{ id: string; instructions?: string; tools?: string[]; gates?: Array<Record<string, unknown>>; do?: { calls: Array<{ operation: string; arguments: Record<string, string> }> } }> };
    const [decide, refund] = doc.steps;
    expect(decide!.instructions).toBeDefined();
    expect(decide!.tools).toBeUndefined();
    expect(decide!.gates!.at(-1)).toMatchObject({ id: "approved", approve: { message: expect.stringContaining("Create the refund once a person approves it.") } });
    expect(refund!.do!.calls[0]!.operation).toMatch(/^TODO: the operationId that makes this change/);
    expect(Object.values(refund!.do!.calls[0]!.arguments)[0]).toContain(`{ var: steps.${decide!.id}.<field> }`);
    // The rule saying who makes the change is kept by the design, not left as a gate to write.
    expect(refund!.gates).toBeUndefined();
    expect(doc.tools.api.exposes).toEqual([expect.stringMatching(/^TODO: the operationId that makes this change/)]);
    expect(o.approvals).toBe(1);
  });

  it("does not take the agent's own confirming or a rule without a person for an approval", () => {
    const o = outline("1. Run the tests and confirm they pass.\n2. Tag it. You MUST have a reviewer.\n");
    expect(o.approvals).toBe(0);
    expect(o.stepfile).not.toContain("approve:");
  });

  it("starts with the yaml-language-server line naming the schema, and the skeleton's approve messages load without warnings about placeholders", () => {
    const o = outline(REFUND, "file:///opt/stepgate/schema/stepfile.schema.json");
    expect(o.stepfile.split("\n")[0]).toBe("# yaml-language-server: $schema=file:///opt/stepgate/schema/stepfile.schema.json");
    expect(o.stepfile).not.toMatch(/approve:\n\s+message: .*\{\{/);
  });

  it("names no schema path it cannot know: without the server's schema file it only says how to add the line", () => {
    const o = outline(REFUND);
    expect(o.stepfile).not.toContain("$schema=./node_modules");
    expect(o.stepfile.split("\n")[0]).toBe("# Skeleton from stepgate_outline. Replace every TODO: marker, then check it with stepgate_validate.");
  });
});
