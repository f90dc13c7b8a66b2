// The stepfile stepgate_guide ends with: small and complete, with a
// mechanical step, an agent step whose gates check its output against the
// calls it made, an approve gate, and the write (a POST) made by a
// mechanical step after the approved step, never by the agent. A test
// loads it and holds it to zero warnings, so the example an agent copies
// from teaches nothing the loader would warn about.
export const GUIDE_EXAMPLE = `stepgate: "1"
id: pick-a-book
description: Pick a book from the shelf for a reader, and lend it once a person approves.
inputs:
  type: object
  required: [reader]
  properties: { reader: { type: string } }
tools:
  library:
    openapi:
      server: https://library.example.com/v1
      document:
        openapi: 3.1.0
        info: { title: Library, version: "1" }
        paths:
          /books:
            get:
              operationId: listBooks
              parameters: [{ name: limit, in: query, schema: { type: integer, maximum: 100 } }]
              responses:
                "200":
                  description: The shelf
                  content: { application/json: { schema: { type: object, properties: { books: { type: array, items: { type: object, properties: { id: { type: string } } } } } } } }
          /books/{id}:
            get:
              operationId: getBook
              parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
              responses:
                "200":
                  description: One book
                  content: { application/json: { schema: { type: object, properties: { id: { type: string }, summary: { type: string } } } } }
          /loans:
            post:
              operationId: lendBook
              requestBody: { content: { application/json: { schema: { type: object, required: [book, reader], properties: { book: { type: string }, reader: { type: string } } } } } }
              responses: { "201": { description: The loan, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } } }
    exposes: [listBooks, getBook, lendBook]
steps:
  - id: shelf # mechanical: Stepgate calls the API itself, so the list is real
    do:
      calls: [{ id: page, operation: listBooks, arguments: { limit: 20 } }]
      output: { ids: { map: [{ var: responses.page.books }, { var: id }] } }
    produces: { type: object, required: [ids], properties: { ids: { type: array, items: { type: string } } } }
  - id: pick # agent step: its gates check the output against the evidence
    instructions: "Read these books with getBook: {{steps.shelf.ids}}. Pick one for a reader who likes {{inputs.reader}}; copy its summary exactly."
    tools: [getBook]
    retries: 1
    produces:
      type: object
      required: [id, summary]
      properties: { id: { type: string }, summary: { type: string } }
    let:
      read: { results: [getBook, id] }
      summaries: { results: [getBook, summary] }
    gates:
      - id: on-the-shelf
        message: "pick a book from the shelf:"
        predicate: { in: [{ var: output.id }, { var: steps.shelf.ids }] }
        explain: { var: steps.shelf.ids }
      - id: read-it
        message: "read your pick with getBook first; not read:"
        predicate: { subset: [[{ var: output.id }], { var: let.read }] }
      - id: real-summary
        message: "copy the summary getBook returned exactly; it returned:"
        predicate: { in: [{ var: output.summary }, { var: let.summaries }] }
        explain: { var: let.summaries }
      - id: person-agrees
        approve: { message: "Lend the reader this book (below)?" }
  - id: lend # the write, made by Stepgate after the approval, never by the agent
    do:
      calls: [{ id: loan, operation: lendBook, arguments: { body: { book: { var: steps.pick.id }, reader: { var: inputs.reader } } } }]
      output: { loan: { var: responses.loan.id } }
    produces: { type: object, required: [loan], properties: { loan: { type: string } } }
`;
