// Row keys and columns: camelCase in the code, snake_case in Postgres. For the statements built
// without a model (db/insert-statement.ts, the named reads), spelled as knexSnakeCaseMappers spells
// our keys (letters only).

/** camelCase key -> snake_case column */
export const columnOf = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
