// Every schedule of the server, driven by the server's clock (so time skipping fires them): one
// timer per schedule at its next action time; when it fires, the nominal times since the last
// pass are acted on (paused: skipped; past the catch-up window: missed; limited actions: counted
// down) and the timer is re-armed. Closing runs let buffered starts go.
import type { TimerHandle } from '../../clock';
import { failedPrecondition, notFound, RpcError } from '../../errors';
import type { Memo, Schedule, SchedulePatch, SearchAttributes } from '../../messages';
import { durationMs, OverlapPolicy, timestampMs } from '../../proto';
import type { SearchAttributeTypes } from '../../state/search-attribute-types';
import type { ScheduleActions } from './schedule-actions';
import { actualTime, compileSpec, nextNominalTime, nominalTimesBetween } from './schedule-spec';
import { DEFAULT_CATCHUP_MS, type ScheduleState } from './schedule-state';
import { status as Status } from '@grpc/grpc-js';

export interface SchedulesDeps {
  clock: { now(): number; at(due: number, fn: () => void): TimerHandle };
  actions: ScheduleActions;
  searchAttributes: Pick<SearchAttributeTypes, 'typed'>;
}

/** Told about every change (persistence). */
export interface ScheduleListener {
  changed(s: ScheduleState): void;
  deleted(s: ScheduleState): void;
}

const key = (ns: string, id: string) => `${ns}\u0000${id}`;

export class Schedules {
  private readonly byKey = new Map<string, ScheduleState>();
  private readonly timers = new Map<string, TimerHandle>();
  private listener?: ScheduleListener;

  constructor(private readonly deps: SchedulesDeps) {}

  /** Tells `listener` about every change from now on (the store, once attached). */
  setListener(listener: ScheduleListener): void {
    this.listener = listener;
  }

  list(ns: string): ScheduleState[] {
    return [...this.byKey.values()].filter((s) => s.namespace === ns);
  }

  get(ns: string, id: string): ScheduleState {
    const s = this.byKey.get(key(ns, id));
    if (!s) throw notFound(`schedule not found: ${id}`);
    return s;
  }

  create(
    ns: string,
    id: string,
    schedule: Schedule,
    memo: Memo | undefined,
    searchAttributes: SearchAttributes | undefined,
    initialPatch?: SchedulePatch,
  ): void {
    if (!id) throw new RpcError(Status.INVALID_ARGUMENT, 'schedule_id is required');
    if (this.byKey.has(key(ns, id))) throw new RpcError(Status.ALREADY_EXISTS, 'schedule with this ID is already registered');
    if (!schedule.action?.startWorkflow) throw new RpcError(Status.INVALID_ARGUMENT, 'schedule action start_workflow is required');
    const now = this.deps.clock.now();
    const s: ScheduleState = {
      namespace: ns,
      scheduleId: id,
      schedule: this.compiled(schedule),
      memo,
      searchAttributes: this.deps.searchAttributes.typed(searchAttributes),
      createTime: now,
      actionCount: 0,
      missedCatchupWindow: 0,
      overlapSkipped: 0,
      bufferDropped: 0,
      recentActions: [],
      running: [],
      buffer: [],
      processedUntil: now,
      conflictToken: 1,
    };
    this.byKey.set(key(ns, id), s);
    if (initialPatch) this.applyPatch(s, initialPatch);
    this.arm(s);
    this.listener?.changed(s);
  }

  update(ns: string, id: string, schedule: Schedule, conflictToken: Uint8Array | undefined, searchAttributes: SearchAttributes | undefined): void {
    const s = this.get(ns, id);
    if (conflictToken?.length && Buffer.from(conflictToken).toString() !== String(s.conflictToken)) {
      throw failedPrecondition('mismatched conflict token');
    }
    const now = this.deps.clock.now();
    s.schedule = this.compiled(schedule);
    if (searchAttributes) s.searchAttributes = this.deps.searchAttributes.typed(searchAttributes);
    s.updateTime = now;
    s.processedUntil = Math.max(s.processedUntil, now);
    s.conflictToken++;
    this.arm(s);
    this.listener?.changed(s);
  }

  patch(ns: string, id: string, patch: SchedulePatch): void {
    const s = this.get(ns, id);
    this.applyPatch(s, patch);
    s.updateTime = this.deps.clock.now();
    s.conflictToken++;
    this.arm(s);
    this.listener?.changed(s);
  }

  delete(ns: string, id: string): void {
    const s = this.get(ns, id);
    this.timers.get(key(ns, id))?.cancel();
    this.timers.delete(key(ns, id));
    this.byKey.delete(key(ns, id));
    this.listener?.deleted(s);
  }

  /** A run closed: schedules waiting on it may start their buffered actions. */
  runClosed(): void {
    // After the current call stack, so a continue-as-new run is already registered.
    setImmediate(() => {
      for (const s of this.byKey.values()) {
        if (!s.running.length) continue;
        const before = s.running.length;
        this.deps.actions.drain(s);
        this.deps.actions.refreshRunning(s);
        if (s.running.length !== before) this.listener?.changed(s);
      }
    });
  }

  /**
   * The schedule as stored: its spec compiled, and the search attributes of its start-workflow
   * action stamped with their registered types (Describe returns them as the real server does).
   */
  private compiled(schedule: Schedule): Schedule {
    const startWorkflow = schedule.action?.startWorkflow;
    const action = startWorkflow
      ? { ...schedule.action, startWorkflow: { ...startWorkflow, searchAttributes: this.deps.searchAttributes.typed(startWorkflow.searchAttributes) } }
      : schedule.action;
    return { ...schedule, spec: compileSpec(schedule.spec), action };
  }

  /** Next action times (actual, with jitter) after the processed point; none while paused or out of actions. */
  futureActionTimes(s: ScheduleState, count = 10): number[] {
    const state = s.schedule.state;
    if (state?.paused) return [];
    let remaining = state?.limitedActions ? (state.remainingActions ?? 0) : count;
    const out: number[] = [];
    let t = s.processedUntil;
    while (out.length < count && remaining-- > 0) {
      const next = nextNominalTime(s.schedule.spec ?? {}, t);
      if (next === undefined) break;
      out.push(actualTime(s.schedule.spec ?? {}, s.scheduleId, next));
      t = next;
    }
    return out;
  }

  /** Puts a stored schedule back and re-arms it (restart). */
  restore(s: ScheduleState): void {
    this.byKey.set(key(s.namespace, s.scheduleId), s);
    this.arm(s);
  }

  private applyPatch(s: ScheduleState, patch: SchedulePatch): void {
    const now = this.deps.clock.now();
    const state = (s.schedule.state ??= {});
    if (patch.pause) {
      state.paused = true;
      state.notes = patch.pause;
    }
    if (patch.unpause) {
      state.paused = false;
      state.notes = patch.unpause;
      s.processedUntil = Math.max(s.processedUntil, now);
    }
    const defaultPolicy = s.schedule.policies?.overlapPolicy || OverlapPolicy.v('SKIP');
    if (patch.triggerImmediately) {
      this.deps.actions.take(s, { nominal: now, actual: now, overlap: patch.triggerImmediately.overlapPolicy || defaultPolicy, manual: true });
    }
    for (const b of patch.backfillRequest ?? []) {
      const from = timestampMs(b.startTime) ?? now;
      const to = timestampMs(b.endTime) ?? now;
      for (const t of nominalTimesBetween(s.schedule.spec ?? {}, from - 1, to)) {
        this.deps.actions.take(s, { nominal: t, actual: t, overlap: b.overlapPolicy || defaultPolicy, manual: true });
      }
    }
  }

  private fire(s: ScheduleState): void {
    if (this.byKey.get(key(s.namespace, s.scheduleId)) !== s) return;
    const now = this.deps.clock.now();
    const spec = s.schedule.spec ?? {};
    const state = s.schedule.state ?? {};
    const catchup = durationMs(s.schedule.policies?.catchupWindow) || DEFAULT_CATCHUP_MS;
    for (const nominal of nominalTimesBetween(spec, s.processedUntil, now)) {
      const actual = actualTime(spec, s.scheduleId, nominal);
      if (actual > now) break;
      s.processedUntil = nominal;
      if (state.paused) continue;
      if (state.limitedActions && (state.remainingActions ?? 0) <= 0) continue;
      if (now - actual > catchup) {
        s.missedCatchupWindow++;
        continue;
      }
      if (state.limitedActions) state.remainingActions = (state.remainingActions ?? 0) - 1;
      this.deps.actions.take(s, { nominal, actual, overlap: s.schedule.policies?.overlapPolicy || OverlapPolicy.v('SKIP'), manual: false });
    }
    this.arm(s);
    this.listener?.changed(s);
  }

  private arm(s: ScheduleState): void {
    const k = key(s.namespace, s.scheduleId);
    this.timers.get(k)?.cancel();
    this.timers.delete(k);
    const state = s.schedule.state;
    if (state?.paused || (state?.limitedActions && (state.remainingActions ?? 0) <= 0)) return;
    const spec = s.schedule.spec ?? {};
    const next = nextNominalTime(spec, s.processedUntil);
    if (next === undefined) return;
    this.timers.set(
      k,
      this.deps.clock.at(actualTime(spec, s.scheduleId, next), () => this.fire(s)),
    );
  }
}
