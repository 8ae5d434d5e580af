// Parser and evaluator for the List Filter subset operators use with ListWorkflowExecutions /
// CountWorkflowExecutions: comparisons (= != > >= < <=), IN (...), BETWEEN .. AND .., STARTS_WITH,
// AND / OR / parentheses, and ORDER BY <field> [ASC|DESC]. Pure: no server state.

export type Value = string | number | boolean | null | string[];
export type Expr =
  | { kind: 'and' | 'or'; left: Expr; right: Expr }
  | { kind: 'cmp'; field: string; op: string; value: Value }
  | { kind: 'in'; field: string; values: Value[]; negate: boolean }
  | { kind: 'between'; field: string; low: Value; high: Value }
  | { kind: 'startsWith'; field: string; prefix: string };

export interface ParsedQuery {
  where?: Expr;
  orderBy?: { field: string; desc: boolean };
  /** GROUP BY <field> (counts only). */
  groupBy?: string;
}

export class QuerySyntaxError extends Error {}

type Token = { t: 'ident' | 'string' | 'number' | 'op' | 'punct'; v: string };

function tokenize(q: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let s = '';
      while (j < q.length && q[j] !== c) {
        if (q[j] === '\\' && j + 1 < q.length) j++;
        s += q[j++];
      }
      if (j >= q.length) throw new QuerySyntaxError('unterminated string literal');
      out.push({ t: 'string', v: s });
      i = j + 1;
      continue;
    }
    if (c === '`') {
      const j = q.indexOf('`', i + 1);
      if (j < 0) throw new QuerySyntaxError('unterminated identifier');
      out.push({ t: 'ident', v: q.slice(i + 1, j) });
      i = j + 1;
      continue;
    }
    const two = q.slice(i, i + 2);
    if (two === '!=' || two === '>=' || two === '<=' || two === '<>') {
      out.push({ t: 'op', v: two === '<>' ? '!=' : two });
      i += 2;
      continue;
    }
    if (c === '=' || c === '>' || c === '<') {
      out.push({ t: 'op', v: c });
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === ',') {
      out.push({ t: 'punct', v: c });
      i++;
      continue;
    }
    const num = /^-?\d+(\.\d+)?/.exec(q.slice(i));
    if (num && (c === '-' || /\d/.test(c))) {
      out.push({ t: 'number', v: num[0] });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(q.slice(i));
    if (id) {
      out.push({ t: 'ident', v: id[0] });
      i += id[0].length;
      continue;
    }
    throw new QuerySyntaxError(`unexpected character '${c}' at ${i}`);
  }
  return out;
}

export function parseQuery(query: string): ParsedQuery {
  const toks = tokenize(query ?? '');
  let pos = 0;
  const peek = () => toks[pos];
  const isKw = (kw: string) => peek()?.t === 'ident' && peek().v.toUpperCase() === kw;
  const expectKw = (kw: string) => {
    if (!isKw(kw)) throw new QuerySyntaxError(`expected ${kw}`);
    pos++;
  };
  const expectPunct = (p: string) => {
    if (peek()?.t !== 'punct' || peek().v !== p) throw new QuerySyntaxError(`expected '${p}'`);
    pos++;
  };
  const value = (): Value => {
    const tk = toks[pos++];
    if (!tk) throw new QuerySyntaxError('expected a value');
    if (tk.t === 'string') return tk.v;
    if (tk.t === 'number') return Number(tk.v);
    if (tk.t === 'ident' && /^(true|false)$/i.test(tk.v)) return tk.v.toLowerCase() === 'true';
    if (tk.t === 'ident' && /^null$/i.test(tk.v)) return null;
    throw new QuerySyntaxError(`expected a value, got '${tk.v}'`);
  };
  const primary = (): Expr => {
    if (peek()?.t === 'punct' && peek().v === '(') {
      pos++;
      const e = orExpr();
      expectPunct(')');
      return e;
    }
    const f = toks[pos++];
    if (!f || f.t !== 'ident') throw new QuerySyntaxError('expected a field name');
    const field = f.v;
    if (peek()?.t === 'op') {
      const op = toks[pos++].v;
      return { kind: 'cmp', field, op, value: value() };
    }
    let negate = false;
    if (isKw('NOT')) {
      negate = true;
      pos++;
    }
    if (isKw('IN')) {
      pos++;
      expectPunct('(');
      const values = [value()];
      while (peek()?.t === 'punct' && peek().v === ',') {
        pos++;
        values.push(value());
      }
      expectPunct(')');
      return { kind: 'in', field, values, negate };
    }
    if (negate) throw new QuerySyntaxError('NOT is only supported as NOT IN');
    if (isKw('BETWEEN')) {
      pos++;
      const low = value();
      expectKw('AND');
      return { kind: 'between', field, low, high: value() };
    }
    if (isKw('STARTS_WITH')) {
      pos++;
      const v = value();
      if (typeof v !== 'string') throw new QuerySyntaxError('STARTS_WITH needs a string');
      return { kind: 'startsWith', field, prefix: v };
    }
    if (isKw('IS')) throw new QuerySyntaxError('IS NULL is not supported');
    throw new QuerySyntaxError(`expected an operator after ${field}`);
  };
  const andExpr = (): Expr => {
    let left = primary();
    while (isKw('AND')) {
      pos++;
      left = { kind: 'and', left, right: primary() };
    }
    return left;
  };
  const orExpr = (): Expr => {
    let left = andExpr();
    while (isKw('OR')) {
      pos++;
      left = { kind: 'or', left, right: andExpr() };
    }
    return left;
  };
  const result: ParsedQuery = {};
  if (toks.length && !isKw('ORDER') && !isKw('GROUP')) result.where = orExpr();
  if (isKw('GROUP')) {
    pos++;
    expectKw('BY');
    const f = toks[pos++];
    if (!f || f.t !== 'ident') throw new QuerySyntaxError('expected a field after GROUP BY');
    result.groupBy = f.v;
  }
  if (isKw('ORDER')) {
    pos++;
    expectKw('BY');
    const f = toks[pos++];
    if (!f || f.t !== 'ident') throw new QuerySyntaxError('expected a field after ORDER BY');
    let desc = false;
    if (isKw('DESC')) {
      desc = true;
      pos++;
    } else if (isKw('ASC')) pos++;
    result.orderBy = { field: f.v, desc };
  }
  if (pos < toks.length) throw new QuerySyntaxError(`unexpected '${toks[pos].v}'`);
  return result;
}

/** Field values of one execution; arrays (KeywordList) match when any element matches. */
export type Row = (field: string) => Value | undefined;

const TIME_FIELDS = new Set(['StartTime', 'CloseTime', 'ExecutionTime']);

function normalise(field: string, v: Value | undefined): Value | undefined {
  // Time fields are stored as epoch ms; literals are RFC 3339 strings.
  if (TIME_FIELDS.has(field) && typeof v === 'string') {
    const ms = Date.parse(v);
    if (Number.isNaN(ms)) throw new QuerySyntaxError(`invalid time '${v}' for ${field}`);
    return ms;
  }
  return v;
}

function compare(a: Value | undefined, op: string, b: Value | undefined): boolean {
  if (Array.isArray(a)) return a.some((x) => compare(x, op, b));
  if (a === undefined || a === null) return op === '!=' ? b !== null : b === null && op === '=';
  switch (op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '>':
      return b !== null && b !== undefined && a > b;
    case '>=':
      return b !== null && b !== undefined && a >= b;
    case '<':
      return b !== null && b !== undefined && a < b;
    case '<=':
      return b !== null && b !== undefined && a <= b;
  }
  throw new QuerySyntaxError(`unsupported operator ${op}`);
}

export function evaluate(e: Expr, row: Row): boolean {
  switch (e.kind) {
    case 'and':
      return evaluate(e.left, row) && evaluate(e.right, row);
    case 'or':
      return evaluate(e.left, row) || evaluate(e.right, row);
    case 'cmp': {
      const actual = row(e.field);
      let literal = normalise(e.field, e.value);
      // Custom Datetime attributes are stored as epoch ms too; compare against parsed literals.
      if (typeof literal === 'string' && typeof (Array.isArray(actual) ? actual[0] : actual) === 'number' && !Number.isNaN(Date.parse(literal))) {
        literal = Date.parse(literal);
      }
      return compare(actual, e.op, literal);
    }
    case 'in': {
      const hit = e.values.some((v) => compare(row(e.field), '=', normalise(e.field, v)));
      return e.negate ? !hit : hit;
    }
    case 'between':
      return compare(row(e.field), '>=', normalise(e.field, e.low)) && compare(row(e.field), '<=', normalise(e.field, e.high));
    case 'startsWith': {
      const v = row(e.field);
      const list = Array.isArray(v) ? v : [v];
      return list.some((x) => typeof x === 'string' && x.startsWith(e.prefix));
    }
  }
}
