// The project's own ESLint rules (registered in eslint.config.mjs as the `salon` plugin). They need
// type information: whether a value is a knex handle is a question for the type checker, not for
// the name a file happens to give it.
//
// - salon/queries-in-repositories: outside `*.repository.ts` and `db/`, a database handle (the
//   one `Db` type, any knex instance or transaction) may only open a transaction or be passed on;
//   building a query on it (`db('bookings')`, `db.raw(...)`, `trx.select(...)`) is an error, and so is
//   `SomeModel.query(...)` (the dependency rules keep models out of those files too).
// - salon/injected-clock: no argument-less `new Date()` and no `Date.now()`: time comes from the
//   injected clock (`Clock` in domain/time/clock.ts). Turned on for domain/ only.

import ts from 'typescript';

/** knex's member names, read from its types by the first file linted. */
let knexMembers;

/**
 * Is the ESTree node a knex handle? Asked of the type checker (parserOptions.projectService), once
 * per symbol: the answer for `db`, `trx` or `deps.knex` is the same at every use.
 */
function knexHandleCheck(context) {
  const services = context.sourceCode.parserServices;
  if (!services?.program) throw new Error(`${context.id} needs type information (parserOptions.projectService)`);
  const checker = services.program.getTypeChecker();
  const bySymbol = new Map();
  knexMembers ??= knexMemberNames(services.program, checker);
  return (node) => {
    const tsNode = services.esTreeNodeToTSNodeMap.get(node);
    let symbol = checker.getSymbolAtLocation(tsNode);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    if (symbol && bySymbol.has(symbol)) return bySymbol.get(symbol);
    // functions, methods and classes are never handles: answered without asking for a type
    const declared = symbol?.valueDeclaration;
    const answer =
      declared && (ts.isFunctionDeclaration(declared) || ts.isMethodDeclaration(declared) || ts.isMethodSignature(declared) || ts.isClassDeclaration(declared))
        ? false
        : isKnexType(checker.getTypeAtLocation(tsNode));
    if (symbol) bySymbol.set(symbol, answer);
    return answer;
  };
}

/** What code outside db/ may do with a handle: open a transaction on it, ask whether it is one, close the pool. */
const HANDLE_MEMBERS_ALLOWED = new Set(['transaction', 'isTransaction', 'destroy']);

/** The names of knex's members (the Knex interface and its query interface), read once from knex's own types. */
function knexMemberNames(program, checker) {
  const names = new Set();
  for (const file of program.getSourceFiles()) {
    if (!/node_modules\/knex\/types\/index\.d\.ts$/.test(file.fileName)) continue;
    const visit = (node) => {
      if (node.name?.text === 'Knex' && node.symbol) {
        for (const member of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(node.symbol))) names.add(member.getName());
      }
      node.forEachChild?.(visit);
    };
    file.forEachChild(visit);
  }
  return names;
}

function isKnexType(type) {
  if (type.isUnion()) return type.types.some(isKnexType);
  const symbol = type.getSymbol() ?? type.aliasSymbol;
  if (!symbol) return false;
  if (!['Knex', 'Transaction'].includes(symbol.getName())) return false;
  return (symbol.getDeclarations() ?? []).some((d) => /node_modules\/knex\//.test(d.getSourceFile().fileName));
}

const queriesInRepositories = {
  meta: {
    type: 'problem',
    docs: { description: 'Queries live in *.repository.ts and db/: services pass their handle to a repository function.' },
    messages: {
      builder: "A query outside a repository: move it into the owning module's *.repository.ts (services only open transactions on a Db and pass it on).",
      model: "A model query outside a repository: move it into the owning module's *.repository.ts.",
    },
    schema: [],
  },
  create(context) {
    const isHandle = knexHandleCheck(context);
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (
          callee.type === 'MemberExpression' &&
          callee.property.type === 'Identifier' &&
          /^(query|relatedQuery|knexQuery)$/.test(callee.property.name) &&
          callee.object.type === 'Identifier' &&
          /Model$/.test(callee.object.name)
        ) {
          context.report({ node, messageId: 'model' });
          return;
        }
        // db('bookings'), deps.knex('bookings'): the handle itself called as a query builder. A handle
        // takes a table name (and options): other calls are not asked about.
        const [table, ...rest] = node.arguments;
        if (!table || rest.length > 1 || !['Literal', 'TemplateLiteral', 'Identifier', 'MemberExpression'].includes(table.type)) return;
        if (isHandle(callee)) context.report({ node, messageId: 'builder' });
      },
      MemberExpression(node) {
        if (node.computed || node.property.type !== 'Identifier' || HANDLE_MEMBERS_ALLOWED.has(node.property.name)) return;
        // only a member knex has can be a knex member (most member expressions are not asked about)
        if (!knexMembers.has(node.property.name)) return;
        if (isHandle(node.object)) context.report({ node, messageId: 'builder' });
      },
    };
  },
};

const injectedClock = {
  meta: {
    type: 'problem',
    docs: { description: 'Domain code takes the time from the injected clock, never from the machine.' },
    messages: { clock: 'Take the time from the injected clock (nowOf(deps), domain/time/clock.ts), or take `now` as a parameter.' },
    schema: [],
  },
  create(context) {
    return {
      NewExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'Date' && node.arguments.length === 0) context.report({ node, messageId: 'clock' });
      },
      CallExpression(node) {
        const c = node.callee;
        if (
          c.type === 'MemberExpression' &&
          c.object.type === 'Identifier' &&
          c.object.name === 'Date' &&
          c.property.type === 'Identifier' &&
          c.property.name === 'now'
        )
          context.report({ node, messageId: 'clock' });
      },
    };
  },
};

export default {
  meta: { name: 'salon' },
  rules: { 'queries-in-repositories': queriesInRepositories, 'injected-clock': injectedClock },
};
