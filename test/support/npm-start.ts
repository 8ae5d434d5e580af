// The settings of an `npm start` (dist/bin/dev.js) of a test's own: its data folder and a free port
// for each thing it serves (api, Temporal, the Temporal Web UI, the dev identity provider), so it
// collides with no other run on the machine.
import { freePort } from '../../devstack/postgres';

export interface NpmStartPorts {
  port: number;
  temporalPort: number;
  uiPort: number;
  oidcPort: number;
}

export async function npmStartEnv(dataDir: string, settings: NodeJS.ProcessEnv = {}): Promise<{ ports: NpmStartPorts; env: NodeJS.ProcessEnv }> {
  const ports = { port: await freePort(), temporalPort: await freePort(), uiPort: await freePort(), oidcPort: await freePort() };
  const env = {
    DATA_DIR: dataDir,
    PORT: String(ports.port),
    TEMPORAL_PORT: String(ports.temporalPort),
    TEMPORAL_UI_PORT: String(ports.uiPort),
    OIDC_DEV_PORT: String(ports.oidcPort),
    ...settings,
  };
  return { ports, env };
}
