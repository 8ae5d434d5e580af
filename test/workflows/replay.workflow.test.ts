// Open runs replay on new workflow code (CONTRIBUTING.md#when-the-entity-lives-over-time-its-workflow): a booking's history written by
// the version before search attributes and summaries (4b2b63f: created, confirmed, moved, reminded,
// completed, recorded with stub activities on the Java test server) replays on today's bundle without
// a nondeterminism error. The new commands (the search attributes' upserts) sit behind patched(); the
// summaries are metadata of the same commands.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Worker } from '@temporalio/worker';
import { platformWorkflowBundle } from './support/platform-bundle';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('replaying histories of earlier versions', function () {
  this.timeout(60_000);

  it('when a booking run recorded before search attributes and summaries is replayed on this version then it replays without a nondeterminism error', async () => {
    const history = JSON.parse(fs.readFileSync(path.join(__dirname, 'histories', 'booking-4b2b63f.json'), 'utf8'));
    const upserted = history.events.flatMap((e: Json) => Object.keys(e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {}));
    expect([...new Set(upserted)], "only the SDK's patch versions were upserted then").to.deep.equal(['TemporalChangeVersion']);
    await Worker.runReplayHistory({ workflowBundle: await platformWorkflowBundle() }, history, 'booking:b-1');
  });
});
