// The booking figures /api/metrics reports, counted from the rows at each scrape (every api process
// reports the same numbers, and a move made on the manage page counts as one made through the API).
import { raw } from 'objection';
import type { Db } from '../../db/db-handle';
import { BookingAuditLogModel } from '../../db/models/booking-audit-log.model';
import type { ActorRole } from './booking-status.rules';

export interface MovesOfSalon {
  tenantId: string;
  /** who moved: CUSTOMER (the manage page, the token or the signed-in customer) or the salon's role */
  actorRole: ActorRole;
  moves: number;
}

/** Bookings moved to another time, per salon and mover (the RESCHEDULED audit entries; migration 155 indexes them). */
export async function movesBySalon(db: Db): Promise<MovesOfSalon[]> {
  const rows = (await BookingAuditLogModel.query(db)
    .select('tenantId', 'actorRole', raw('count(*)::int AS moves'))
    .where('action', 'RESCHEDULED')
    .groupBy('tenantId', 'actorRole')) as unknown as MovesOfSalon[];
  return rows.map((r) => ({ tenantId: r.tenantId, actorRole: r.actorRole, moves: Number(r.moves) }));
}
