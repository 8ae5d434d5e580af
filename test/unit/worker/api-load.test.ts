// The worker yielding to a saturated api under `npm start` (composition/api-load.ts,
// docs/rules/consistency.md#worker-priority): when the api counts as busy, and what an activity does then.
import { expect } from 'chai';
import { eventually } from '../../support/eventually';
import {
  ApiLoadGate,
  BUSY_FROM,
  IDLE_BELOW,
  isApiLoadMessage,
  nextApiLoad,
  watchApiLoad,
  yieldingActivities,
  type ApiLoad,
} from '../../../composition/api-load';

const settled = async <T>(promise: Promise<T>, withinMs: number): Promise<boolean> =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), withinMs))]);

describe('worker yields to a busy api', () => {
  it('when the api event loop runs at least BUSY_FROM of a sample then it is busy, and idle only below IDLE_BELOW', () => {
    expect(nextApiLoad('idle', BUSY_FROM)).to.equal('busy');
    expect(nextApiLoad('idle', BUSY_FROM - 0.01), 'just below busy, from idle').to.equal('idle');
    expect(nextApiLoad('busy', IDLE_BELOW), 'at the idle line, from busy').to.equal('busy');
    expect(nextApiLoad('busy', 0.7), 'between the lines nothing changes').to.equal('busy');
    expect(nextApiLoad('busy', IDLE_BELOW - 0.01)).to.equal('idle');
  });

  it('when the api is idle then an activity starts at once, with no promise to wait on', () => {
    expect(new ApiLoadGate().wait()).to.equal(undefined);
  });

  it('when the api is busy then an activity waits until it is idle', async () => {
    const gate = new ApiLoadGate(60_000);
    gate.set('busy');
    const waiting = [gate.wait('readBooking')!, gate.wait('sendBookingSms')!];
    expect(gate.held(), 'both wait at the gate').to.deep.equal(['readBooking', 'sendBookingSms']);
    gate.set('idle');
    expect(gate.held()).to.deep.equal([]);
    expect(await settled(Promise.all(waiting), 50), 'released together').to.equal(true);
  });

  it('when the api stays busy then an activity waits no longer than the hold limit', async () => {
    const gate = new ApiLoadGate(40);
    gate.set('busy');
    const started = Date.now();
    await gate.wait();
    expect(Date.now() - started).to.be.at.least(35);
    expect(gate.held(), 'released by the hold limit: no longer held').to.deep.equal([]);
    expect(gate.wait(), 'the api is still busy: the next one waits too').to.be.an.instanceOf(Promise);
  });

  it('when the worker runs an activity while the api is busy then its code begins only once the api is idle', async () => {
    const gate = new ApiLoadGate(60_000);
    const inbound = yieldingActivities(gate)({ info: { activityType: 'sendBookingSms' } } as never).inbound!;
    let ran = 0;
    gate.set('busy');
    const result = inbound.execute!({ args: [], headers: {} }, async () => ++ran);
    expect(gate.held(), 'the activity waits at the gate, by its type').to.deep.equal(['sendBookingSms']);
    expect(ran, 'the activity has not begun').to.equal(0);
    gate.set('idle');
    expect(await result).to.equal(1);
  });

  it('when the api thread is blocked for a while then the watcher reports busy, and idle once it is free again', async () => {
    const reports: ApiLoad[] = [];
    const stop = watchApiLoad((load) => reports.push(load), 20);
    try {
      await new Promise((resolve) => setTimeout(resolve, 30));
      const until = Date.now() + 120;
      while (Date.now() < until); // the api's event loop, saturated
      await eventually(async () => reports.includes('busy'), 'a busy report');
      await eventually(
        async () => reports.at(-1) === 'idle',
        () => `an idle report after it (${reports.join(', ')})`,
        5_000,
      );
    } finally {
      stop();
    }
  });

  it('when a message comes over the IPC channel then only an api load message is taken for one', () => {
    expect(isApiLoadMessage({ apiLoad: 'busy' })).to.equal(true);
    expect(isApiLoadMessage({ apiLoad: 'idle' })).to.equal(true);
    expect(isApiLoadMessage({ apiLoad: 'heavy' })).to.equal(false);
    expect(isApiLoadMessage(null)).to.equal(false);
    expect(isApiLoadMessage('busy')).to.equal(false);
  });
});
