// Registers the platform's search attributes (domain/workflow-signals/search-attributes.rules.ts) on
// a Temporal server through its operator service: the dev server of npm start and the tests (a SQLite
// file made before an attribute existed gets it too), the Java test server, the Go-built server on
// Postgres. Only the missing ones are added, so it is safe on every start.
import type { Connection } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { PLATFORM_SEARCH_ATTRIBUTES } from '../../domain/workflow-signals/search-attributes.rules';

/** The `--search-attribute` flags of `temporal server start-dev` for them (a new SQLite file has them from the start). */
export function searchAttributeFlags(): string[] {
  return Object.entries(PLATFORM_SEARCH_ATTRIBUTES).flatMap(([name, type]) => ['--search-attribute', `${name}=${type}`]);
}

/** gRPC's UNIMPLEMENTED: the Java test server lists no search attributes (it adds them, again and again alike). */
const UNIMPLEMENTED = 12;

/** The names the namespace has registered; undefined where the server cannot list them. */
async function registered(connection: Connection, namespace: string): Promise<Set<string> | undefined> {
  try {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    return new Set(Object.keys(customAttributes ?? {}));
  } catch (err) {
    if ((err as { code?: number }).code === UNIMPLEMENTED) return undefined;
    throw err;
  }
}

/** Adds the platform's search attributes the namespace lacks; returns the names it added. */
export async function registerPlatformSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const known = await registered(connection, namespace);
  const missing = Object.entries(PLATFORM_SEARCH_ATTRIBUTES).filter(([name]) => !known?.has(name));
  if (!missing.length) return [];
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(
        missing.map(([name, type]) => [name, encodeSearchAttributeIndexedValueType(type.toUpperCase() as 'KEYWORD' | 'DATETIME')!]),
      ),
    });
  } catch (err) {
    // another process registered them meanwhile (two npm test lanes on one server)
    if (!/already exists/i.test((err as Error).message)) throw err;
  }
  return missing.map(([name]) => name);
}
