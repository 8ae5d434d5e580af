// The api cut off from Temporal for real (no stub of the signaller): an app like the shared stack's,
// on the same database and worker, whose signaller is the production one (createTemporalSignaller, as
// bin/api.ts makes it) pointed at Temporal through a TCP proxy (test/support/tcp-proxy.ts). `refuse()`
// makes Temporal refuse connections, `hang()` makes it accept them and answer nothing (the signal's
// deadline runs out), `restore()` puts it back. The worker keeps its own connection.
import type { Express } from 'express';
import { createApp } from '../../api/app';
import { createTemporalSignaller } from '../../composition/compose';
import { stack } from './stack';
import { startTestTemporal } from './temporal';
import { startTcpProxy } from './tcp-proxy';

export interface TemporalOutage {
  app: Express;
  refuse(): Promise<void>;
  hang(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function appWithTemporalOutage(): Promise<TemporalOutage> {
  const { platform } = await stack();
  const [host, port] = (await startTestTemporal()).address.split(':');
  const proxy = await startTcpProxy({ host, port: Number(port) });
  const config = platform.deps.config;
  const signaller = createTemporalSignaller({ ...config, temporalAddress: proxy.address });
  const app = createApp({ ...platform.deps, signaller }, { validateResponses: true });
  return {
    app,
    refuse: () => proxy.cut(),
    hang: () => proxy.hang(),
    restore: () => proxy.restore(),
    async close() {
      await signaller.close();
      await proxy.close();
    },
  };
}
