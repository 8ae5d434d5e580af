// The week and day a page is asked to show (docs/rules/booking-page.md#steps-and-history): nothing is
// offered past the salon's last bookable day, so a week or day after it (9999-12-31 included, whose
// week runs past the calendar) is 404, never a week computed out of range.
import { errors } from '../../domain/errors';

/** 404 DATE_NOT_FOUND when `asked` (a real YYYY-MM-DD) is after `last`, the salon's last bookable day. */
export function assertShownDate(asked: string | null, last: string): void {
  if (asked !== null && asked > last) throw errors.notFound('date', 'Nothing is offered that far ahead');
}
