// A worker in its own process, so a test can SIGKILL it in the middle of an activity.
// argv: <server address> <task queue>
import { NativeConnection, Worker, Runtime, DefaultLogger } from '@temporalio/worker';
import * as activities from '../activities';

async function main() {
  Runtime.install({ logger: new DefaultLogger('ERROR'), telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } } });
  const [address, taskQueue] = process.argv.slice(2);
  const connection = await NativeConnection.connect({ address });
  // Activities only: the workflow task runs on the test's own worker.
  const worker = await Worker.create({ connection, taskQueue, activities });
  await worker.run();
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
