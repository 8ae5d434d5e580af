// The floor's api process (bench/e2e.ts): express, knex over pg and the Temporal client, as the
// platform's api uses them, and nothing else. POST /floor writes one row in one transaction and,
// before it commits, signals-with-start the floor workflow (as the api signals a booking's workflow
// before its commit, docs/rules/consistency.md). A bench process: no route of the product's contract.
//   env: DATABASE_URL, TEMPORAL_ADDRESS, PORT, FLOOR_TASK_QUEUE
import express from 'express';
import knexFactory from 'knex';
import { Client, Connection } from '@temporalio/client';
import { floorSignal, floorWorkflow } from './floor.workflow';

async function main(): Promise<void> {
  const knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: Number(process.env.DB_POOL_MAX ?? 10) } });
  const client = new Client({ connection: await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! }) });
  const taskQueue = process.env.FLOOR_TASK_QUEUE ?? 'floor';
  const app = express();
  app.use(express.json());
  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  app.post('/floor', async (req, res) => {
    try {
      const id = await knex.transaction(async (trx) => {
        const [row] = await trx('bench_floor')
          .insert({ note: String(req.body?.note ?? '') })
          .returning('id');
        await client.workflow.signalWithStart(floorWorkflow, {
          workflowId: `floor:${row.id}`,
          taskQueue,
          args: [row.id],
          signal: floorSignal,
          signalArgs: [{ type: 'Created', entityVersion: 1 }],
        });
        return row.id as string;
      });
      res.status(201).json({ data: { id } });
    } catch (err) {
      res.status(500).json({ error: String(err) });
    }
  });
  app.listen(Number(process.env.PORT), '127.0.0.1');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
