import { Model } from 'objection';

/** rate_limit_counters (migration 043, UNLOGGED): one fixed window of hits per limiter key, shared by every api process. */
export class RateLimitCounterModel extends Model {
  static override tableName = 'rate_limit_counters';
  static override idColumn = 'key';

  key!: string;
  hits!: number;
  resetAt!: Date;
}
