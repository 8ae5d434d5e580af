// The customer search of GET /customers and GET /tenant-customers, in one place for both lists.
import type { QueryBuilder } from 'objection';
import { likePattern, normalisePhone } from './customer.rules';

/** Search term matched case-insensitively against name, e-mail and (normalised) phone. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function applyCustomerSearch(q: QueryBuilder<any, any>, search: string | undefined, table = 'customers'): void {
  const term = search?.trim();
  if (!term) return;
  const phoneTerm = normalisePhone(term);
  q.where((w) => {
    w.where(`${table}.name`, 'ilike', likePattern(term)).orWhere(`${table}.email`, 'ilike', likePattern(term.toLowerCase()));
    if (phoneTerm) w.orWhere(`${table}.phone`, 'like', likePattern(phoneTerm));
  });
}
