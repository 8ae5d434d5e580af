// The signal inbox of an entity workflow (docs/rules/consistency.md#the-entity-inbox), shared by every workflow that
// follows one database entity (booking, payment, subscription, voucher, upload).
//
// The api signals `{type, entityVersion}` BEFORE its transaction commits, so an event is only a hint
// that a change is coming. The inbox turns those hints into committed state:
//   - it queues the signals, lowest entityVersion first (signals may arrive out of order);
//   - for each one it calls the read activity with `minVersion = entityVersion`; that activity retries
//     while the version is not visible yet, and when it finally gives up, the event is dropped (its
//     transaction rolled back);
//   - an event at or below the version already seen is dropped too: that state is already known
//     (duplicate signals, or an older event that arrived after a newer one).
// The workflow itself then only reads `current` and waits for the state it cares about, in the
// manner of `condition(() => state === ..., timeout)`:
//
//   const payment = entityInbox<PaymentEvent, PaymentSnapshot>({
//     name: `payment ${paymentId}`,
//     signal: paymentEventSignal,
//     readCommitted: (minVersion) => readPayment({ paymentId, minVersion }),
//     onChange: async ({ previous, current }) => { ... },   // optional
//   });
//   if (!(await payment.first())) return;                    // the creation never committed
//   const settled = await payment.waitUntil(isFinal, { deadline: (p) => Date.parse(p.expiresAt) });
//   if (!settled) await expirePayment({ paymentId });          // the deadline came first
//
// Create it first thing in the workflow function (the signal handler must exist before the first
// await), and keep the read activity's retry short: it bounds how long a rolled-back change is waited for.
import { ActivityFailure, ApplicationFailure, condition, log, setHandler, type SignalDefinition } from '@temporalio/workflow';

/** What the api signals: a change of the entity, and the version the change produces. */
export interface EntityEvent {
  readonly type: string;
  readonly entityVersion: number;
}

/** What the read activity returns: the committed entity, with its version. */
export interface EntitySnapshot {
  readonly version: number;
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
  /** the entity's signal; its handler is installed when the inbox is created */
  signal: SignalDefinition<[E]>;
  /**
   * The read activity: the committed entity once it has reached `minVersion`. It retries (briefly)
   * while the version is not visible; when the activity finally fails, the event is dropped.
   */
  readCommitted(minVersion: number): Promise<S>;
  /** called after every committed change, before any wait returns (e.g. "tell the customer") */
  onChange?(change: CommittedChange<E, S>): Promise<void>;
  /** names the entity in log lines, e.g. `booking 42` */
  name: string;
}

/** A condition on the committed entity, and optionally a deadline that follows its state. */
export interface WaitOptions<S> {
  /**
   * Absolute time (workflow clock, epoch ms) at which to stop waiting, computed from the current
   * state again after every change (so a rescheduled booking moves its reminder); null: no deadline.
   */
  deadline?(current: S): number | null;
}

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
}

export function entityInbox<E extends EntityEvent, S extends EntitySnapshot>(options: EntityInboxOptions<E, S>): EntityInbox<E, S> {
  const waiting: E[] = [];
  let current: S | undefined;

  setHandler(options.signal, (event) => {
    // kept sorted by version; equal versions keep their arrival order
    const at = waiting.findIndex((queued) => queued.entityVersion > event.entityVersion);
    waiting.splice(at === -1 ? waiting.length : at, 0, event);
  });

  /** The committed state for the oldest waiting event, or undefined when the event is dropped. */
  async function read(event: E): Promise<S | undefined> {
    try {
      return await options.readCommitted(event.entityVersion);
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      const reason = err.cause instanceof ApplicationFailure ? err.cause.type : err.cause?.message;
      log.warn(`dropping an event of ${options.name} whose change never became visible`, { event, reason });
      return undefined;
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
    if (!current) throw new Error(`${options.name}: call first() before waiting on its state`);
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

    async waitUntil(done, { deadline } = {}) {
      while (!done(requireCurrent())) {
        const until = deadline?.(requireCurrent()) ?? null;
        if (until === null) {
          await condition(() => waiting.length > 0);
        } else {
          const arrived = await condition(() => waiting.length > 0, Math.max(1, until - Date.now()));
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
  };
}
