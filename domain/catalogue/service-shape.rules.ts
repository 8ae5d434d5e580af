/**
 * The parts of a service (docs/rules/catalogue.md#phases-buffers-and-rooms): its ordered phases
 * (work: the staff member is busy; processing: the client waits, the staff member is free), the
 * buffers before and after (the staff member's, and a whole-service room's, time that the customer
 * is not shown), and the rooms or equipment it needs. Pure; the availability engine
 * (domain/availability/visit.rules.ts) lays a service out in time from its shape.
 */
import type { ErrorDetail } from '../errors';

export type PhaseKind = 'WORK' | 'PROCESSING';
export const PHASE_KINDS: readonly PhaseKind[] = ['WORK', 'PROCESSING'];

export interface ServicePhase {
  kind: PhaseKind;
  minutes: number;
}

/** The kinds of resource a service may need besides its staff member. */
export type RequirementType = 'room' | 'equipment';
export const REQUIREMENT_TYPES: readonly RequirementType[] = ['room', 'equipment'];

/**
 * One room or piece of equipment the service needs: any one of the salon's active resources of
 * `resourceType` that have the service among their skills, for the given phases (0-based indexes)
 * or, with `phases` null, for the whole service, buffers included.
 */
export interface ResourceRequirement {
  resourceType: RequirementType;
  phases: number[] | null;
}

/** What availability and booking need of a service to lay it out in time. */
export interface ServiceShape {
  /** ordered; the minutes add up to the service's duration */
  phases: readonly ServicePhase[];
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  requirements: readonly ResourceRequirement[];
}

/** Limits of a service's parts (docs/rules/limits.md). */
export const SHAPE_LIMITS = { maxPhases: 10, maxBufferMinutes: 120, maxRequirements: 2, maxDurationMinutes: 1440 } as const;

/** The shape of a service that only has a duration: one work phase, no buffers, nothing else needed. */
export function oneWorkPhase(duration: number): ServiceShape {
  return { phases: [{ kind: 'WORK', minutes: duration }], bufferBeforeMinutes: 0, bufferAfterMinutes: 0, requirements: [] };
}

/** The customer-visible length: the phases' minutes (buffers excluded). */
export function phaseMinutes(phases: readonly ServicePhase[]): number {
  return phases.reduce((sum, p) => sum + p.minutes, 0);
}

/** A phase or requirement as stored: db/ types its enums as strings (the database checks them). */
interface StoredPhase {
  kind: string;
  minutes: number;
}
interface StoredRequirement {
  resourceType: string;
  phases: readonly number[] | null;
}

/** Stored phases (null: one work phase of `duration`, migration 140) as the list they stand for. */
export function phasesOf(stored: readonly StoredPhase[] | null | undefined, duration: number): ServicePhase[] {
  return stored && stored.length ? stored.map((p) => ({ kind: p.kind as PhaseKind, minutes: p.minutes })) : [{ kind: 'WORK', minutes: duration }];
}

/** How phases are stored: null for the canonical single work phase. */
export function storedPhases(phases: readonly ServicePhase[]): ServicePhase[] | null {
  return phases.length === 1 && phases[0].kind === 'WORK' ? null : phases.map((p) => ({ kind: p.kind, minutes: p.minutes }));
}

/** A service row's shape (its stored columns, as the repositories read them). */
export function shapeOfService(row: {
  duration: number;
  phases?: readonly StoredPhase[] | null;
  bufferBeforeMinutes?: number | null;
  bufferAfterMinutes?: number | null;
  resourceRequirements?: readonly StoredRequirement[] | null;
}): ServiceShape {
  return {
    phases: phasesOf(row.phases, row.duration),
    bufferBeforeMinutes: row.bufferBeforeMinutes ?? 0,
    bufferAfterMinutes: row.bufferAfterMinutes ?? 0,
    requirements: (row.resourceRequirements ?? []).map((r) => ({
      resourceType: r.resourceType as RequirementType,
      phases: r.phases === null ? null : [...r.phases],
    })),
  };
}

/** What is wrong with a shape, by field (empty when it is valid). */
export function shapeProblems(shape: ServiceShape): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const { phases } = shape;
  if (phases.length < 1 || phases.length > SHAPE_LIMITS.maxPhases)
    problems.push({ field: 'phases', message: `must have 1 to ${SHAPE_LIMITS.maxPhases} phases` });
  phases.forEach((p, i) => {
    if (!PHASE_KINDS.includes(p.kind)) problems.push({ field: `phases.${i}.kind`, message: `must be one of ${PHASE_KINDS.join(', ')}` });
    if (!Number.isInteger(p.minutes) || p.minutes < 1)
      problems.push({ field: `phases.${i}.minutes`, message: 'must be a whole number of minutes, at least 1' });
  });
  if (phaseMinutes(phases) > SHAPE_LIMITS.maxDurationMinutes)
    problems.push({ field: 'phases', message: `must last at most ${SHAPE_LIMITS.maxDurationMinutes} minutes in all` });
  for (const field of ['bufferBeforeMinutes', 'bufferAfterMinutes'] as const) {
    const v = shape[field];
    if (!Number.isInteger(v) || v < 0 || v > SHAPE_LIMITS.maxBufferMinutes)
      problems.push({ field, message: `must be 0 to ${SHAPE_LIMITS.maxBufferMinutes} minutes` });
  }
  if (shape.requirements.length > SHAPE_LIMITS.maxRequirements)
    problems.push({ field: 'resourceRequirements', message: `at most ${SHAPE_LIMITS.maxRequirements}` });
  const types = new Set<string>();
  shape.requirements.forEach((r, i) => {
    if (!REQUIREMENT_TYPES.includes(r.resourceType))
      problems.push({ field: `resourceRequirements.${i}.resourceType`, message: `must be one of ${REQUIREMENT_TYPES.join(', ')}` });
    else if (types.has(r.resourceType)) problems.push({ field: `resourceRequirements.${i}.resourceType`, message: 'one requirement per type of resource' });
    types.add(r.resourceType);
    if (r.phases === null || r.phases === undefined) return;
    if (r.phases.length === 0) problems.push({ field: `resourceRequirements.${i}.phases`, message: 'name at least one phase, or null for the whole service' });
    if (new Set(r.phases).size !== r.phases.length) problems.push({ field: `resourceRequirements.${i}.phases`, message: 'must not repeat a phase' });
    if (r.phases.some((p) => !Number.isInteger(p) || p < 0 || p >= phases.length)) {
      problems.push({ field: `resourceRequirements.${i}.phases`, message: `must be phase indexes from 0 to ${phases.length - 1}` });
    }
  });
  return problems;
}
