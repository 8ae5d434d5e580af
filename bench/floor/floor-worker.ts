// The floor's worker process (bench/e2e.ts): a Temporal worker of the floor workflow, with the
// platform worker's slots, and GET /done on HEALTH_PORT: when each run's last activity was done.
//   env: TEMPORAL_ADDRESS, FLOOR_TASK_QUEUE, HEALTH_PORT, WORKER_MAX_CONCURRENT_ACTIVITIES, WORKER_MAX_CONCURRENT_WORKFLOW_TASKS
import http from 'node:http';
import { NativeConnection, Runtime, DefaultLogger, Worker } from '@temporalio/worker';
import { floorActivities } from './floor-activities';

async function main(): Promise<void> {
  // the SDK's warnings (a workflow task slower than 5 s on a saturated machine) would drown the bench's lines
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const done = new Map<string, number>();
  const slots = {
    activities: Number(process.env.WORKER_MAX_CONCURRENT_ACTIVITIES ?? 20),
    workflowTasks: Number(process.env.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS ?? 20),
  };
  const worker = await Worker.create({
    connection: await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! }),
    taskQueue: process.env.FLOOR_TASK_QUEUE ?? 'floor',
    workflowsPath: require.resolve('./floor.workflow'),
    activities: floorActivities(done),
    maxConcurrentActivityTaskExecutions: slots.activities,
    maxConcurrentLocalActivityExecutions: slots.activities,
    maxConcurrentWorkflowTaskExecutions: slots.workflowTasks,
  });
  http
    .createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Object.fromEntries(done)));
    })
    .listen(Number(process.env.HEALTH_PORT), '127.0.0.1');
  await worker.run();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
