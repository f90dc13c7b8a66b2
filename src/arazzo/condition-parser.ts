// The Criterion Object's simple conditions, parsed: literals (true, false,
// null, numbers, 'strings' with '' for a quote), runtime expressions, and the
// operators < <= > >= == != ! && || () [] . of the Arazzo Specification,
// "Criterion Object" > "Literals" and "Operators" (OAI/Arazzo-Specification,
// versions/1.0.1.md, commit fc140d26c440291b0061c62a53e45a8fb07cc369). The
// same grammar reads a JSONPath filter's body (`@.name`, `length(@.items)`).
// No parser of this small grammar exists as a library; JSONPath libraries
// evaluate queries, they do not translate them.

export type Node =
  | { kind: "literal"; value: null | boolean | number | string }
  | { kind: "expression"; text: string; keys: (string | number)[] }
  | { kind: "current"; keys: (string | number)[] }
  | { kind: "call"; name: string; args: Node[] }
  | { kind: "not"; operand: Node }
  | { kind: "logic"; op: "&&" | "||"; left: Node; right: Node }
  | { kind: "compare"; op: "==" | "!=" | "<" | "<=" | ">" | ">="; left: Node; right: Node };

type Token = { t: "op"; v: string } | { t: "num"; v: number } | { t: "str"; v: string } | { t: "word"; v: string } | { t: "expr"; v: string } | { t: "at" };

export class ConditionSyntax extends Error {
  override readonly name = "ConditionSyntax";
}

const OPERATORS = ["&&", "||", "==", "!=", "<=", ">=", "<", ">", "!", "(", ")", "[", "]", ".", ","];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "$") {
      let j = i + 1;
      while (j < text.length && !/[\s()=!<>&|,[\]]/.test(text[j]!)) j++;
      tokens.push({ t: "expr", v: text.slice(i, j) });
      i = j;
      continue;
    }
    if (c === "@") {
      tokens.push({ t: "at" });
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      // Arazzo strings are single-quoted with '' for a quote; JSONPath filters also allow double quotes.
      let j = i + 1;
      let value = "";
      for (;;) {
        if (j >= text.length) throw new ConditionSyntax(`a string opened at column ${i + 1} is not closed`);
        if (text[j] === c) {
          if (c === "'" && text[j + 1] === "'") {
            value += "'";
            j += 2;
            continue;
          }
          break;
        }
        value += text[j];
        j++;
      }
      tokens.push({ t: "str", v: value });
      i = j + 1;
      continue;
    }
    const num = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i));
    if (num && (c !== "-" || tokens.length === 0 || tokens[tokens.length - 1]!.t === "op")) {
      tokens.push({ t: "num", v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(i));
    if (word) {
      tokens.push({ t: "word", v: word[0] });
      i += word[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (!op) throw new ConditionSyntax(`unexpected ${JSON.stringify(c)} at column ${i + 1}`);
    tokens.push({ t: "op", v: op });
    i += op.length;
  }
  return tokens;
}

export function parseCondition(text: string): Node {
  const tokens = tokenize(text);
  let at = 0;
  const peek = () => tokens[at];
  const isOp = (v: string) => peek()?.t === "op" && (peek() as { v: string }).v === v;
  const expectOp = (v: string) => {
    if (!isOp(v)) throw new ConditionSyntax(`expected ${v}${peek() ? "" : " before the end"}`);
    at++;
  };

  /** One level of left-associative `&&` or `||`. */
  const chain = (op: "&&" | "||", operand: () => Node) => (): Node => {
    let left = operand();
    while (isOp(op)) {
      at++;
      left = { kind: "logic", op, left, right: operand() };
    }
    return left;
  };
  const and = (): Node => chain("&&", unary)();
  const or = (): Node => chain("||", and)();
  const unary = (): Node => {
    if (isOp("!")) {
      at++;
      return { kind: "not", operand: unary() };
    }
    return compare();
  };
  const compare = (): Node => {
    const left = postfix();
    const token = peek();
    if (token?.t === "op" && ["==", "!=", "<", "<=", ">", ">="].includes(token.v)) {
      at++;
      return { kind: "compare", op: token.v as "==", left, right: postfix() };
    }
    return left;
  };
  const postfix = (): Node => {
    const node = primary();
    const keys: (string | number)[] = [];
    for (;;) {
      if (isOp("[")) {
        at++;
        const index = tokens[at++];
        if (index?.t !== "num" && index?.t !== "str") throw new ConditionSyntax("[] takes an index or a quoted name");
        keys.push(index.v);
        expectOp("]");
      } else if (isOp(".") && (node.kind === "expression" || node.kind === "current")) {
        at++;
        const name = tokens[at++];
        if (name?.t !== "word") throw new ConditionSyntax(". takes a name");
        keys.push(name.v);
      } else break;
    }
    if (keys.length === 0) return node;
    if (node.kind !== "expression" && node.kind !== "current") throw new ConditionSyntax("only a runtime expression or @ can be indexed");
    return { ...node, keys: [...node.keys, ...keys] };
  };
  const primary = (): Node => {
    const token = tokens[at++];
    if (!token) throw new ConditionSyntax("the condition ends where a value was expected");
    switch (token.t) {
      case "num":
        return { kind: "literal", value: token.v };
      case "str":
        return { kind: "literal", value: token.v };
      case "expr":
        return { kind: "expression", text: token.v, keys: [] };
      case "at":
        return { kind: "current", keys: [] };
      case "word": {
        if (token.v === "true" || token.v === "false") return { kind: "literal", value: token.v === "true" };
        if (token.v === "null") return { kind: "literal", value: null };
        if (!isOp("(")) throw new ConditionSyntax(`unexpected word ${token.v}`);
        at++;
        const args: Node[] = [];
        if (!isOp(")")) {
          args.push(or());
          while (isOp(",")) {
            at++;
            args.push(or());
          }
        }
        expectOp(")");
        return { kind: "call", name: token.v, args };
      }
      case "op":
        if (token.v === "(") {
          const inner = or();
          expectOp(")");
          return inner;
        }
        throw new ConditionSyntax(`unexpected ${token.v}`);
    }
  };

  const node = or();
  if (at < tokens.length) throw new ConditionSyntax(`unexpected text after the condition`);
  return node;
}
