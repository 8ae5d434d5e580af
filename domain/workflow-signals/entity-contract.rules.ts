// The one shape of an entity workflow's contract (docs/rules/consistency.md#the-entity-contract).
// Every entity that lives over time (booking, payment, voucher, upload, subscription) declares its
// contract with `entityContract` in `domain/<area>/<entity>-events.rules.ts`: the event types it is
// signalled with, the argument its workflow starts with, and the snapshot its read activity returns.
// Pure and dependency-free: the services, the activities and the workflows all import it.

/** What a change signals: its type and the entity's `version` after it. */
export interface EntityEvent<T extends string = string> {
  readonly type: T;
  readonly entityVersion: number;
}

/** What the read activity returns: the committed entity, with its version. */
export interface EntitySnapshot {
  readonly version: number;
}

/** The entity a change is about: its id (a subscription's is its tenant's) and its tenant. */
export interface EntityRef {
  id: string;
  tenantId: string;
}

export interface EntityContract<T extends string, Args, Snapshot extends EntitySnapshot> {
  /** `booking`: the workflow id prefix, and the entity's name in logs and errors */
  readonly entity: string;
  /** the registered workflow function, `<entity>Workflow` */
  readonly workflowType: string;
  /** the signal every change sends, `<entity>Event` */
  readonly signal: string;
  /** the read activity's error type while the change is not committed yet (retried, then dropped) */
  readonly versionNotVisible: string;
  /** the deterministic workflow id, `<entity>:<id>` */
  workflowId(id: string): string;
  /** the one argument the workflow starts with (signal-with-start) */
  startArgs(ref: EntityRef): Args;
  /** Types only, never set: the event, argument and snapshot types of this contract. */
  readonly types?: { event: EntityEvent<T>; eventType: T; args: Args; snapshot: Snapshot };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEntityContract = EntityContract<string, any, EntitySnapshot>;
export type EventOf<C extends AnyEntityContract> = NonNullable<C['types']>['event'];
export type EventTypeOf<C extends AnyEntityContract> = NonNullable<C['types']>['eventType'];
export type SnapshotOf<C extends AnyEntityContract> = NonNullable<C['types']>['snapshot'];

/**
 * Declares an entity's contract. The names follow from `entity`: `booking` gives the workflow type
 * `bookingWorkflow`, the signal `bookingEvent`, ids `booking:<id>` and the error type
 * `BOOKING_VERSION_NOT_VISIBLE` (`errorPrefix` overrides the prefix of the error type, `idPrefix`
 * the prefix of the ids).
 */
export function entityContract<T extends string, Args, Snapshot extends EntitySnapshot>(spec: {
  entity: string;
  startArgs(ref: EntityRef): Args;
  errorPrefix?: string;
  /** the workflow id prefix when it is not the entity's name (`waitlist-offer` for `waitlistOffer`) */
  idPrefix?: string;
}): EntityContract<T, Args, Snapshot> {
  const { entity } = spec;
  const idPrefix = spec.idPrefix ?? entity;
  const prefix = spec.errorPrefix ?? entity.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
  return {
    entity,
    workflowType: `${entity}Workflow`,
    signal: `${entity}Event`,
    versionNotVisible: `${prefix}_VERSION_NOT_VISIBLE`,
    workflowId: (id) => `${idPrefix}:${id}`,
    startArgs: spec.startArgs,
  };
}
