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

/** Adds the platform's search attributes the namespace lacks; returns the names it added. */
export async function registerPlatformSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = Object.entries(PLATFORM_SEARCH_ATTRIBUTES).filter(([name]) => !customAttributes?.[name]);
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
