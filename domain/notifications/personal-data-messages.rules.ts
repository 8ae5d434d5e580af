// The one message an erasure sends (docs/rules/personal-data.md#erasure): that the person's data at
// the salon (or their account and every salon's record) was erased, and which bookings still to come
// were cancelled. Norwegian Bokmål and English. Pure.
import type { Language } from '../language/language.rules';
import { messageDateTime, type RenderedMessage } from './booking-messages.rules';

export interface ErasureNoticeFacts {
  /** the salons whose records were erased, by name */
  salonNames: string[];
  /** a customer account's own request (the account is gone too) */
  account: boolean;
  /** the bookings it cancelled, with the time zone each is written in */
  cancelled: { start: Date; timezone: string }[];
}

export function renderErasureNotice(f: ErasureNoticeFacts, language: Language = 'nb'): RenderedMessage {
  const salons = f.salonNames.join(', ');
  const when = f.cancelled.map((b) => messageDateTime(b.start, b.timezone, language));
  if (language === 'en') {
    const what = f.account
      ? `Your customer account${salons ? ` and your details at ${salons}` : ''} have been deleted`
      : `Your details at ${salons} have been deleted`;
    const cancelled = when.length ? ` Your bookings still to come were cancelled: ${when.join('; ')}. A deposit follows the salon's cancellation terms.` : '';
    return {
      subject: f.account ? 'Your customer account has been deleted' : `Your details at ${salons} have been deleted`,
      text: `${what}, as asked.${cancelled} This is the last message you get from us.`,
    };
  }
  const what = f.account ? `Kundekontoen din${salons ? ` og opplysningene dine hos ${salons}` : ''} er slettet` : `Opplysningene dine hos ${salons} er slettet`;
  const cancelled = when.length ? ` Timene du hadde bestilt er avlyst: ${when.join('; ')}. Et depositum følger salongens avbestillingsvilkår.` : '';
  return {
    subject: f.account ? 'Kundekontoen din er slettet' : `Opplysningene dine hos ${salons} er slettet`,
    text: `${what}, slik det ble bedt om.${cancelled} Dette er den siste meldingen du får fra oss.`,
  };
}
