// The signal inbox of an entity workflow (docs/rules/consistency.md#the-entity-inbox), shared by every workflow that
// follows one database entity (booking, payment, subscription, voucher, upload).
//
// The api signals `{type, entityVersion}` BEFORE its transaction commits, so an event is only a hint
// that a change is coming. The inbox turns those hints into committed state:
//   - it queues the signals, lowest entityVersion first (signals may arrive out of order);
//   - for each one it calls the read activity with `minVersion = entityVersion`; that activity retries
//     while the version is not visible yet, and when it finally gives up with `versionNotVisible`,
//     the event is dropped (its transaction rolled back). A read that fails for another reason (the
//     database is down, the activity timed out) proves nothing about the change: it is read again
//     after a pause (1 s, doubling to 1 min) for as long as it takes;
//   - an event at or below the version already seen is dropped too: that state is already known
//     (duplicate signals, or an older event that arrived after a newer one).
// The workflow itself then only reads `current` and waits for the state it cares about, in the
// manner of `condition(() => state === ..., timeout)`. It is built from the entity's contract
// (domain/<area>/<entity>-events.rules.ts), which names the signal and the snapshot type:
//
//   const { readPayment } = proxyReadActivities<PaymentActivities>([PaymentActivityErrors.notFound]);
//   const payment = entityInbox(paymentContract, paymentId, {
//     readCommitted: (minVersion) => readPayment({ paymentId, minVersion }),
//     onChange: async ({ previous, current }) => { ... },   // optional
//   });
//   if (!(await payment.first())) return;                    // the creation never committed
//   const settled = await payment.waitUntil(isFinal, { deadline: (p) => Date.parse(p.expiresAt) });
//   if (!settled) await expirePayment({ paymentId });          // the deadline came first
//
// Create it first thing in the workflow function (the signal handler must exist before the first
// await), and keep the read activity's retry short: it bounds how long a rolled-back change is waited for.
import {
  ActivityFailure,
  ApplicationFailure,
  TimeoutFailure,
  condition,
  defineSignal,
  log,
  patched,
  setHandler,
  sleep,
  type ActivityInterfaceFor,
  type SignalDefinition,
} from '@temporalio/workflow';
import { proxyWorkerLocalActivities, type LocalOrRemoteOptions } from './worker-local-activities';
import type { AnyEntityContract, EntityEvent, EntitySnapshot, EventOf, SnapshotOf } from '../../domain/workflow-signals/entity-contract.rules';

/** Runs from this version on read again after an outage instead of dropping the event (patched()). */
const READS_OUTLAST_OUTAGES = 'entity-inbox-reads-outlast-outages';

export type { EntityEvent, EntitySnapshot } from '../../domain/workflow-signals/entity-contract.rules';

/**
 * How the read activity failed. An activity's failure arrives as an ActivityFailure around its cause;
 * a local activity's as the cause itself (its ApplicationFailure, or the TimeoutFailure of its last
 * attempt). Anything else (the workflow being cancelled, a bug) is not a failed read: it is thrown on.
 */
function readFailure(err: unknown): { cause: Error | undefined } {
  if (err instanceof ActivityFailure) return { cause: err.cause };
  if (err instanceof ApplicationFailure || err instanceof TimeoutFailure) return { cause: err };
  throw err;
}

/** The signal of an entity's contract: the workflow's handler, and what tests signal it with. */
export function entitySignal<C extends AnyEntityContract>(contract: C): SignalDefinition<[EventOf<C>]> {
  return defineSignal<[EventOf<C>]>(contract.signal);
}

/**
 * Options of an entity's read activity. The signal is sent before the change's transaction commits,
 * so the read waits briefly for the version to appear (about 15 s), then the event is dropped.
 */
export function readCommittedOptions(nonRetryableErrorTypes: string[] = []): LocalOrRemoteOptions {
  return {
    startToCloseTimeout: '10 seconds',
    retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 8, nonRetryableErrorTypes },
  };
}

/** The entity's read activity, run in the worker beside the workflow (workflows/shared/worker-local-activities.ts). */
export function proxyReadActivities<A extends object>(nonRetryableErrorTypes: string[] = []): ActivityInterfaceFor<A> {
  return proxyWorkerLocalActivities<A>(readCommittedOptions(nonRetryableErrorTypes));
}

/** One committed change, as the workflow sees it. */
export interface CommittedChange<E extends EntityEvent, S extends EntitySnapshot> {
  /** the event that announced it */
  event: E;
  /** the entity before (undefined for the first committed state) */
  previous: S | undefined;
  /** the entity as committed, at or after `event.entityVersion` */
  current: S;
}

export interface EntityInboxOptions<E extends EntityEvent, S extends EntitySnapshot> {
  /**
   * The read activity: the committed entity once it has reached `minVersion`. It retries (briefly)
   * while the version is not visible; when it finally gives up with the contract's `versionNotVisible`
   * (or a non-retryable failure), the event is dropped; any other failure is read again.
   */
  readCommitted(minVersion: number): Promise<S>;
  /** called after every committed change, before any wait returns (e.g. "tell the customer") */
  onChange?(change: CommittedChange<E, S>): Promise<void>;
}

/** A condition on the committed entity, and optionally a deadline that follows its state. */
export type WaitOptions<S> =
  | { deadline?: undefined }
  | {
      /**
       * Absolute time (workflow clock, epoch ms) at which to stop waiting, computed from the current
       * state again after every change (so a rescheduled booking moves its reminder); null: no deadline.
       */
      deadline(current: S): number | null;
      /**
       * What the deadline's timer waits for, as the history and the Web UI show it
       * (docs/rules/operations.md#what-the-web-ui-shows), e.g. `reminder of the start 2026-05-04T10:00:00.000Z`.
       */
      summary(current: S): string;
    };

export interface EntityInbox<E extends EntityEvent, S extends EntitySnapshot> {
  /** the latest committed state seen (undefined until `first()` found one) */
  readonly current: S | undefined;
  /**
   * Waits for the first event whose change committed and returns that state; undefined when every
   * event received so far was dropped (the change that started the workflow never committed).
   */
  first(): Promise<S | undefined>;
  /**
   * Follows committed changes until `done(current)` holds (true) or the deadline passes (false).
   * Call after `first()`.
   */
  waitUntil(done: (current: S) => boolean, options?: WaitOptions<S>): Promise<boolean>;
  /** Applies every event already received, without waiting; true when the state moved. */
  catchUp(): Promise<boolean>;
  /**
   * Waits for the next committed change (true), or until `stop()` holds while no event waits
   * (false): a workflow that is only finishing its side effects keeps following its entity.
   */
  nextChange(stop: () => boolean): Promise<boolean>;
}

/**
 * The inbox of the entity `id` of `contract`: installs the handler of the contract's signal (create it
 * first thing in the workflow, before any await) and follows the committed state.
 */
export function entityInbox<C extends AnyEntityContract>(
  contract: C,
  id: string,
  options: EntityInboxOptions<EventOf<C>, SnapshotOf<C>>,
): EntityInbox<EventOf<C>, SnapshotOf<C>> {
  type E = EventOf<C>;
  type S = SnapshotOf<C>;
  const name = `${contract.entity} ${id}`;
  const waiting: E[] = [];
  let current: S | undefined;

  setHandler(entitySignal(contract), (event) => {
    // kept sorted by version; equal versions keep their arrival order
    const at = waiting.findIndex((queued) => queued.entityVersion > event.entityVersion);
    waiting.splice(at === -1 ? waiting.length : at, 0, event);
  });

  /** The committed state for the oldest waiting event, or undefined when the event is dropped. */
  async function read(event: E): Promise<S | undefined> {
    for (let pauseMs = 1000; ; pauseMs = Math.min(2 * pauseMs, 60_000)) {
      try {
        return await options.readCommitted(event.entityVersion);
      } catch (err) {
        const failure = readFailure(err);
        const refusal = failure.cause instanceof ApplicationFailure ? failure.cause : undefined;
        // only "not committed" (or a read refused for good) says the change never happened
        if (refusal?.type === contract.versionNotVisible || refusal?.nonRetryable || !patched(READS_OUTLAST_OUTAGES)) {
          log.warn(`dropping an event of ${name} whose change never became visible`, { event, reason: refusal?.type ?? failure.cause?.message });
          return undefined;
        }
        log.warn(`reading ${name} failed; reading it again in ${pauseMs} ms`, { event, reason: refusal?.type ?? failure.cause?.message });
        await sleep(pauseMs, { summary: `read ${name} (version ${event.entityVersion}) again after a failed read` });
      }
    }
  }

  /** Takes the oldest waiting event; true when it brought a newer committed state. */
  async function applyNext(): Promise<boolean> {
    const event = waiting.shift();
    if (!event) return false;
    if (current && event.entityVersion <= current.version) return false; // already seen
    const committed = await read(event);
    if (!committed || (current && committed.version <= current.version)) return false;
    const previous = current;
    current = committed;
    await options.onChange?.({ event, previous, current });
    return true;
  }

  function requireCurrent(): S {
    if (!current) throw new Error(`${name}: call first() before waiting on its state`);
    return current;
  }

  return {
    get current() {
      return current;
    },

    async first() {
      while (!current) {
        await condition(() => waiting.length > 0);
        await applyNext();
        if (!current && waiting.length === 0) return undefined;
      }
      return current;
    },

    async waitUntil(done, options = {}) {
      while (!done(requireCurrent())) {
        const until = options.deadline?.(requireCurrent()) ?? null;
        if (until === null || !options.deadline) {
          await condition(() => waiting.length > 0);
        } else {
          const arrived = await condition(() => waiting.length > 0, Math.max(1, until - Date.now()), { summary: options.summary(requireCurrent()) });
          if (!arrived) return false;
        }
        await applyNext();
      }
      return true;
    },

    async catchUp() {
      let moved = false;
      while (waiting.length > 0) moved = (await applyNext()) || moved;
      return moved;
    },

    async nextChange(stop) {
      requireCurrent();
      for (;;) {
        await condition(() => waiting.length > 0 || stop());
        if (waiting.length === 0) return false;
        if (await applyNext()) return true;
      }
    },
  };
}
