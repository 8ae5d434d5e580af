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

/** The type of an ESTree node, from the type-aware parser (parserOptions.projectService). */
function typeChecker(context) {
  const services = context.sourceCode.parserServices;
  if (!services?.program) throw new Error(`${context.id} needs type information (parserOptions.projectService)`);
  const checker = services.program.getTypeChecker();
  return (node) => checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node));
}

/** What code outside db/ may do with a handle: open a transaction on it, ask whether it is one, close the pool. */
const HANDLE_MEMBERS_ALLOWED = new Set(['transaction', 'isTransaction', 'destroy']);

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
      builder: 'A query outside a repository: move it into the owning module\'s *.repository.ts (services only open transactions on a Db and pass it on).',
      model: 'A model query outside a repository: move it into the owning module\'s *.repository.ts.',
    },
    schema: [],
  },
  create(context) {
    const typeOf = typeChecker(context);
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier' && /^(query|relatedQuery|knexQuery)$/.test(callee.property.name) && callee.object.type === 'Identifier' && /Model$/.test(callee.object.name)) {
          context.report({ node, messageId: 'model' });
          return;
        }
        // db('bookings'), deps.knex('bookings'): the handle itself called as a query builder
        if (isKnexType(typeOf(callee))) context.report({ node, messageId: 'builder' });
      },
      MemberExpression(node) {
        if (node.computed || node.property.type !== 'Identifier' || HANDLE_MEMBERS_ALLOWED.has(node.property.name)) return;
        if (isKnexType(typeOf(node.object))) context.report({ node, messageId: 'builder' });
      },
    };
  },
};

const injectedClock = {
  meta: {
    type: 'problem',
    docs: { description: 'Domain code takes the time from the injected clock, never from the machine.' },
    messages: { clock: 'Take the time from the injected clock (deps.now / clock.now()), or take `now` as a parameter.' },
    schema: [],
  },
  create(context) {
    return {
      NewExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'Date' && node.arguments.length === 0) context.report({ node, messageId: 'clock' });
      },
      CallExpression(node) {
        const c = node.callee;
        if (c.type === 'MemberExpression' && c.object.type === 'Identifier' && c.object.name === 'Date' && c.property.type === 'Identifier' && c.property.name === 'now') context.report({ node, messageId: 'clock' });
      },
    };
  },
};

export default {
  meta: { name: 'salon' },
  rules: { 'queries-in-repositories': queriesInRepositories, 'injected-clock': injectedClock },
};
