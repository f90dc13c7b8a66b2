// Stepfiles checked against their APIs' own descriptions at load (issue 19):
// a mechanical call's arguments against the operation's input schema, paths
// into open response objects, the types a mechanical step's output template
// computes, and placeholders where the format does not fill them. Every one
// is a warning with line:column that says what to write instead; the file
// still loads. The fixture is a small library API described as real API
// documents are (OpenAPI 3.1, inline, objects without additionalProperties).
import { describe, expect, it } from "vitest";
import { loadStepfileText } from "../../src/loader/load.js";
import { FOUR_MISTAKES, LEND_BOOKS as CORRECT, mistake, pointedAt } from "../support/lend-books.js";

function warnings(text: string) {
  return [...loadStepfileText(text, "lend-books").warnings];
}

describe("the correct stepfile", () => {
  it("loads with no warning at all", () => {
    expect(warnings(CORRECT)).toEqual([]);
  });
});

describe("the four mistakes of issue 19", () => {
  it.each(FOUR_MISTAKES.map((m) => [m.name, m] as const))("%s: one warning, at the mistake, saying what to write instead", (_, m) => {
    const [w, ...rest] = warnings(m.text);
    expect(rest).toEqual([]);
    expect(w!.path).toBe(m.path);
    expect(pointedAt(m.text, w!)).toMatch(m.at);
    expect(w!.message).toMatch(m.says);
  });

  it("says exactly this for the open object and the maximum", () => {
    expect(warnings(FOUR_MISTAKES[0]!.text)[0]!.message).toBe(
      '"items": the response schema of listBooks declares no property items there (the object is open, so an answer may hold more than it documents, but nothing says it holds this), so results would give nothing from it (it declares books, next)',
    );
    expect(warnings(FOUR_MISTAKES[2]!.text)[0]!.message).toBe("per_page = 250 is over the documented maximum of 100, so call page (listBooks) is refused at run time (CallArgumentsInvalid); write at most 100");
  });
});

describe("a mechanical call's arguments", () => {
  const first = (text: string) => {
    const found = warnings(text);
    expect(found, JSON.stringify(found)).toHaveLength(1);
    return found[0]!;
  };

  it("a name the operation does not have, with the nearest one, at the name", () => {
    const text = mistake("per_page: 50", "perpage: 50");
    const w = first(text);
    expect(w.message).toBe("listBooks has no argument perpage, so call page (listBooks) is refused at run time (CallArgumentsInvalid); did you mean per_page?");
    expect(pointedAt(text, w)).toMatch(/^perpage:/);
  });

  it("a required argument not given when a call has no arguments at all", () => {
    const text = mistake(
      "          arguments:\n            body:\n              book: { var: steps.pick.book }\n              member: { var: inputs.member }\n              days: 14\n",
      "",
    );
    expect(first(text).message).toBe(
      "createLoan requires the argument body (the request body, object), which call loan (createLoan) does not give, so call loan (createLoan) is refused at run time (CallArgumentsInvalid); add body to its arguments",
    );
  });

  it("an enum, a type, a pattern and a minimum", () => {
    expect(first(mistake("status: available", "status: gone")).message).toContain('status = "gone" is not one of the documented values, so call page (listBooks) is refused at run time (CallArgumentsInvalid); write one of "available", "lent"');
    expect(first(mistake("days: 14", 'days: "14"')).message).toContain('body.days = "14" is a string, but the schema takes integer');
    expect(first(mistake("days: 14", "days: 2.5")).message).toMatch(/^body.days = 2.5 is a number, but the schema takes integer, .*; write an integer$/);
    expect(first(mistake("days: 14", "days: 0")).message).toContain("body.days = 0 is under the documented minimum of 1");
    expect(first(mistake("member: { var: inputs.member }", "member: member-7")).message).toContain('body.member = "member-7" does not match the documented pattern ^M-[0-9]+$');
    expect(warnings(mistake("member: { var: inputs.member }", "member: M-7"))).toEqual([]);
  });

  it("an undocumented body field on an open object, and a refused one on a closed object", () => {
    const text = mistake("days: 14", "dayz: 14");
    expect(first(text).message).toBe("body has no documented field dayz, so the API most likely ignores or refuses it; did you mean days?");
    const closed = mistake("required: [book, member]", "required: [book, member]\n                      additionalProperties: false", text);
    expect(first(closed).message).toContain("body has no documented field dayz, so call loan (createLoan) is refused at run time (CallArgumentsInvalid); did you mean days?");
  });

  it("a value whose declared type cannot match", () => {
    const w = first(mistake("per_page: 50", "per_page: { var: inputs.member }"));
    expect(w.message).toBe(
      "per_page is string (as the inputs schema declares it), but call page (listBooks) takes integer there, so call page (listBooks) is refused at run time (CallArgumentsInvalid); convert it, or declare it as integer",
    );
    expect(first(mistake("per_page: 50", 'per_page: { cat: ["5", "0"] }')).message).toContain("per_page is string (what cat gives)");
    // A number that may be integral, or a value whose type is not declared, is not judged.
    expect(warnings(mistake("per_page: 50", "per_page: { length: { var: inputs.member } }"))).toEqual([]);
    expect(warnings(mistake("per_page: 50", 'per_page: { "+": [1, 2] }'))).toEqual([]);
  });

  it("is not judged when the arguments are computed whole or the document is fetched by url", () => {
    expect(warnings(mistake("arguments: { per_page: 50, status: available }", "arguments: { merge: [] }"))).toEqual([]);
  });
});

describe("paths read through select and each items", () => {
  it("checks a tool's select against the operation's success response", () => {
    const text = mistake("exposes: [listBooks, createLoan]", "exposes: [{ name: listBooks, select: { map: [{ var: bookz }, { var: id }] } }, createLoan]");
    const [w, ...rest] = warnings(text);
    expect(rest).toEqual([]);
    expect(w!.path).toBe("tools.library.exposes[0].select.map[0].var");
    expect(w!.message).toContain('"bookz": the response schema of listBooks declares no property bookz there (the object is open');
    expect(w!.message).toContain("did you mean books?");
    expect(warnings(mistake("exposes: [listBooks, createLoan]", "exposes: [{ name: listBooks, select: { map: [{ var: books }, { var: titel }] } }, createLoan]"))[0]!.message).toContain("did you mean title?");
    expect(warnings(mistake("exposes: [listBooks, createLoan]", "exposes: [{ name: listBooks, select: { map: [{ var: books }, { var: title }] } }, createLoan]"))).toEqual([]);
  });

  it("checks item in the arguments of a call with each", () => {
    const call = (path: string) =>
      mistake(
        "      output:\n        books:",
        `        - { id: again, operation: listBooks, each: { var: responses.page.books }, arguments: { status: { var: ${path} } } }\n      output:\n        books:`,
      );
    const [w, ...rest] = warnings(call("item.availble"));
    expect(rest).toEqual([]);
    expect(w!.message).toContain('"item.availble": the response schema of listBooks declares no property availble there');
    expect(w!.message).toContain("did you mean item.available?");
    // item.available is a boolean, status takes a string: its declared type cannot match.
    expect(warnings(call("item.available"))[0]!.message).toContain("status is boolean (as the response schema of listBooks declares it), but call again (listBooks) takes string there");
    expect(warnings(call("item.title"))).toEqual([]);
  });
});

describe("calls[].arguments in an agent step's gates", () => {
  const reading = (path: string) => mistake('explain: { cat: ["no listBooks call returned books; the shelf holds: ", { var: let.titles }] }', `explain: { cat: ["you asked for ", { var: ${path} }] }`);

  it("knows the names an operation takes, since a call reaches the tool only with arguments its schema accepts", () => {
    const [w, ...rest] = warnings(reading("calls.0.arguments.perpage"));
    expect(rest).toEqual([]);
    expect(w!.message).toBe('"calls.0.arguments.perpage": the arguments of listBooks declares no property perpage there, so it would be null at run time; did you mean calls.0.arguments.per_page?');
    expect(warnings(reading("calls.0.arguments.per_page"))).toEqual([]);
  });
});

describe("types through a mechanical step's output template", () => {
  it("reads what the template computes, though produces does not list it (never a false 'null at run time')", () => {
    // produces lists only id for the books; the template computes id and name.
    expect(CORRECT).toContain("{ var: current.name }");
    expect(warnings(CORRECT)).toEqual([]);
  });

  it("still warns for a name the template does not compute, with the names it does", () => {
    const text = mistake("{ var: current.name }", "{ var: current.nme }");
    const [w, ...rest] = warnings(text);
    expect(rest).toEqual([]);
    expect(w!.message).toBe('"current.nme": the output template of step shelf declares no property nme there, so it would be null at run time; did you mean current.name?');
    expect(pointedAt(text, w!)).toMatch(/^current\.nme/);
  });

  it("reads an output template's plain members exactly, and produces beneath a computed one", () => {
    expect(warnings(mistake("{ var: steps.pick.book }", "{ var: steps.shelf.bookz }"))[0]!.message).toBe(
      '"steps.shelf.bookz": the output template of step shelf declares no property bookz there, so it would be null at run time; did you mean steps.shelf.books?',
    );
  });
});

describe("placeholders shown as written", () => {
  it("in a gate message, saying what is shown beside it", () => {
    const text = mistake("message: pick a book the shelf listed", 'message: "{{output.book}} is not on the shelf"');
    const [w, ...rest] = warnings(text);
    expect(rest).toEqual([]);
    expect(w!.path).toBe("steps[1].gates[1].message");
    expect(w!.message).toContain("a failing submission is told this message, then the value of explain (or what the predicate's shape adds); compute the value in explain instead");
  });

  it("in the description, never in instructions", () => {
    const text = mistake('id: lend-books\n', 'id: lend-books\ndescription: "Lends a book to {{inputs.member}}"\n');
    expect(warnings(text).map((w) => w.path)).toEqual(["description"]);
  });
});
