// Parses the two command-line shapes sdk-core uses to spawn an "existing-path" server:
//   dev server (temporal CLI):  server start-dev --port <p> --namespace <ns> --ip <ip> [--search-attribute N=T] ...
//   test server (Java):         <port> [--enable-time-skipping] [extra args...]
// Our own addition: --database-url <postgres url> (or env TEMPORAL_DEVSERVER_DATABASE_URL).
// The dev-server shape serves the web UI on --ui-port (default 8233, as the CLI) unless --headless.
// Unknown flags are accepted and ignored (the SDK passes log and dynamic-config flags).

export interface LauncherConfig {
  mode: 'dev' | 'test';
  port: number;
  host: string;
  namespaces: string[];
  timeSkipping: boolean;
  /** Test server started with --enable-time-skipping: skipping starts unlocked. */
  startUnlocked: boolean;
  searchAttributes: Record<string, string>;
  /** --database-url: keep state in Postgres (dev-server role). */
  databaseUrl?: string;
  /** Port of the web UI (dev-server shape without --headless); undefined = no UI. */
  uiPort?: number;
}

export const DEFAULT_UI_PORT = 8233;

const BOOLEAN_FLAGS = new Set(['headless', 'enable-time-skipping', 'help']);

export function parseLauncherArgs(argv: string[]): LauncherConfig {
  const args = [...argv];
  const dev = args[0] === 'server' && args[1] === 'start-dev';
  if (dev) args.splice(0, 2);
  const flags: Record<string, string[]> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      let value = 'true';
      if (eq > 0) value = a.slice(eq + 1);
      else if (!BOOLEAN_FLAGS.has(name) && i + 1 < args.length && !args[i + 1].startsWith('--')) value = args[++i];
      (flags[name] ??= []).push(value);
    } else {
      positionals.push(a);
    }
  }
  const portText = dev ? (flags.port?.[0] ?? '7233') : positionals[0];
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`usage: launcher <port> | launcher server start-dev --port <port> [--ip <ip>] [--namespace <ns>] (got port "${portText}")`);
  }
  let uiPort: number | undefined;
  if (dev && !flags.headless) {
    const uiText = flags['ui-port']?.[0] ?? String(DEFAULT_UI_PORT);
    uiPort = Number(uiText);
    if (!Number.isInteger(uiPort) || uiPort < 0 || uiPort > 65535) throw new Error(`--ui-port must be a port number (got "${uiText}")`);
  }
  const searchAttributes: Record<string, string> = {};
  for (const sa of flags['search-attribute'] ?? []) {
    const [k, t] = sa.split('=');
    if (k) searchAttributes[k] = t ?? 'Keyword';
  }
  return {
    mode: dev ? 'dev' : 'test',
    port,
    host: dev ? (flags.ip?.[0] ?? '127.0.0.1') : '0.0.0.0',
    namespaces: flags.namespace ?? [],
    timeSkipping: !dev,
    startUnlocked: !dev && !!flags['enable-time-skipping'],
    searchAttributes,
    databaseUrl: flags['database-url']?.[0],
    uiPort,
  };
}
