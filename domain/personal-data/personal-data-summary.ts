// The readable summary of a personal-data export (docs/rules/personal-data.md#access-and-portability):
// the same document as the JSON, as plain text a person can read, in Norwegian or English. Money is
// written by the one money module; times in the salon's time zone. Pure.
import { formatMoney } from '../money/money.rules';
import { utcToLocalDate, utcToLocalTime } from '../time/salon-time.rules';
import type { Language } from '../language/language.rules';
import type { PersonalDataExportDto, SalonPersonalDataDto } from './personal-data.dto';

const LABELS = {
  nb: {
    title: 'Personopplysninger',
    exportedAt: 'Hentet ut',
    account: 'Kundekonto',
    salon: 'Salong',
    profile: 'Kunde',
    name: 'Navn',
    phone: 'Telefon',
    email: 'E-post',
    notes: 'Salongens notater',
    tags: 'Merker',
    marketing: 'Samtykke til markedsføring',
    yes: 'ja',
    no: 'nei',
    visits: 'Besøk',
    spent: 'Brukt i alt',
    bookings: 'Bestillinger',
    payments: 'Betalinger',
    refund: 'refusjon',
    loyalty: 'Lojalitet',
    stamps: 'stempler',
    vouchers: 'Gavekort og rabatter',
    points: 'poeng',
    messages: 'Meldinger sendt til deg',
    replies: 'Svar fra deg',
    answer: 'svar',
    waitlist: 'Venteliste',
    series: 'Faste avtaler',
    every: 'hver {n}. uke',
    nudges: 'Påminnelser om ny time',
    consents: 'Samtykker',
    granted: 'gitt',
    withdrawn: 'trukket',
    erasure: 'Sletting',
    erased: 'Slettet',
    none: 'ingen',
    signIns: 'Innlogginger',
  },
  en: {
    title: 'Personal data',
    exportedAt: 'Exported',
    account: 'Customer account',
    salon: 'Salon',
    profile: 'Customer',
    name: 'Name',
    phone: 'Phone',
    email: 'E-mail',
    notes: "The salon's notes",
    tags: 'Tags',
    marketing: 'Consent to marketing',
    yes: 'yes',
    no: 'no',
    visits: 'Visits',
    spent: 'Spent in all',
    bookings: 'Bookings',
    payments: 'Payments',
    refund: 'refund',
    loyalty: 'Loyalty',
    stamps: 'stamps',
    vouchers: 'Vouchers',
    points: 'points',
    messages: 'Messages sent to you',
    replies: 'Your replies',
    answer: 'answer',
    waitlist: 'Waitlist',
    series: 'Standing appointments',
    every: 'every {n} weeks',
    nudges: 'Reminders to book again',
    consents: 'Consents',
    granted: 'given',
    withdrawn: 'withdrawn',
    erasure: 'Erasure',
    erased: 'Erased',
    none: 'none',
    signIns: 'Sign-ins',
  },
} as const;

type Labels = (typeof LABELS)[Language];

function when(iso: string | null, timezone: string): string {
  if (!iso) return '-';
  return `${utcToLocalDate(new Date(iso), timezone)} ${utcToLocalTime(new Date(iso), timezone)}`;
}

function section(title: string, lines: string[], l: Labels): string[] {
  return ['', `${title}:`, ...(lines.length ? lines.map((line) => `  ${line}`) : [`  (${l.none})`])];
}

function salonLines(s: SalonPersonalDataDto, l: Labels, lang: Language, timezone: string, currency: string): string[] {
  const t = (iso: string | null) => when(iso, timezone);
  const kr = (minor: number) => formatMoney(minor, currency, lang);
  const out = ['', `== ${l.salon}: ${s.salon.name} ==`];
  if (s.customer) {
    out.push(
      ...section(
        l.profile,
        [
          `${l.name}: ${s.customer.name}`,
          `${l.phone}: ${s.customer.phone ?? '-'}`,
          `${l.email}: ${s.customer.email ?? '-'}`,
          `${l.notes}: ${s.customer.notes ?? '-'}`,
          `${l.marketing}: ${s.customer.acceptsMarketing ? l.yes : l.no}`,
          ...(s.customer.erasedAt ? [`${l.erased}: ${t(s.customer.erasedAt)}`] : []),
        ],
        l,
      ),
    );
  }
  if (s.salonRecord) {
    out.push(
      ...section(
        l.visits,
        [
          `${l.tags}: ${s.salonRecord.tags.join(', ') || '-'}`,
          `${l.notes}: ${s.salonRecord.notes ?? '-'}`,
          `${l.visits}: ${s.salonRecord.visitCount} (${t(s.salonRecord.firstVisit)} - ${t(s.salonRecord.lastVisit)})`,
          `${l.spent}: ${kr(s.salonRecord.totalSpent)}`,
        ],
        l,
      ),
    );
  }
  out.push(
    ...section(
      l.bookings,
      s.bookings.map(
        (b) =>
          `${t(b.startTime)} ${b.status}: ${b.items.map((i) => [i.service, i.staff].filter(Boolean).join(' / ')).join(', ')}; ${kr(b.totalAmount - b.discountAmount)}` +
          (b.contact.name || b.contact.phone ? ` (${[b.contact.name, b.contact.phone, b.contact.email].filter(Boolean).join(', ')})` : '') +
          (b.notes ? ` - ${b.notes}` : ''),
      ),
      l,
    ),
  );
  out.push(
    ...section(
      l.payments,
      s.payments.flatMap((p) => [
        `${t(p.createdAt)} ${p.intent} ${p.status}: ${kr(p.amount)}`,
        ...p.refunds.map((r) => `  ${t(r.createdAt)} ${l.refund} ${r.status}: ${kr(r.amount)}`),
      ]),
      l,
    ),
  );
  out.push(
    ...section(
      l.loyalty,
      [
        ...s.loyalty.stamps.map((st) => `${t(st.createdAt)} ${st.card}: #${st.stampNumber} (${l.stamps})`),
        ...s.loyalty.vouchers.map((v) => `${l.vouchers}: ${v.code} ${v.rewardType} ${v.rewardValue} ${v.status}`),
        ...s.loyalty.points.map((p) => `${p.card}: ${p.balance} ${l.points}`),
      ],
      l,
    ),
  );
  out.push(
    ...section(
      l.messages,
      s.messages.map((m) => `${t(m.sentAt)} ${m.channel} ${m.kind} -> ${m.to ?? '-'}: ${m.text ?? '-'}`),
      l,
    ),
  );
  out.push(
    ...section(
      l.replies,
      s.replies.map((r) => `${t(r.receivedAt)} "${r.text}" (${r.outcome}); ${l.answer}: ${r.answer}`),
      l,
    ),
  );
  out.push(
    ...section(
      l.waitlist,
      s.waitlistEntries.map((e) => `${e.fromDate} - ${e.toDate} ${e.status} (${[e.contact.name, e.contact.phone].filter(Boolean).join(', ')})`),
      l,
    ),
  );
  out.push(
    ...section(
      l.series,
      s.series.map((x) => `${t(x.createdAt)} ${x.status}, ${l.every.replace('{n}', String(x.intervalWeeks))}`),
      l,
    ),
  );
  out.push(
    ...section(
      l.nudges,
      s.rebookingNudges.map((n) => `${n.status}${n.sentAt ? ` ${t(n.sentAt)}` : ''}`),
      l,
    ),
  );
  out.push(
    ...section(
      l.consents,
      s.consents.map((c) => `${t(c.recordedAt)} ${c.granted ? l.granted : l.withdrawn} (${c.source})`),
      l,
    ),
  );
  if (s.erasure) out.push(...section(l.erasure, [`${s.erasure.status} ${t(s.erasure.requestedAt)}`], l));
  return out;
}

/** The export as text; `salonSettings` gives each salon's time zone and currency. */
export function personalDataSummary(doc: PersonalDataExportDto, lang: Language, salonSettings: Map<string, { timezone: string; currency: string }>): string {
  const l = LABELS[lang];
  const out = [`${l.title}`, `${l.exportedAt}: ${doc.exportedAt}`];
  if (doc.account) {
    const a = doc.account;
    out.push(
      ...section(
        l.account,
        [
          `${l.name}: ${a.name ?? '-'}`,
          `${l.email}: ${a.email ?? '-'}`,
          `${l.phone}: ${a.phone ?? '-'}`,
          `${l.signIns}: ${a.signIns.map((s) => s.issuer).join(', ') || '-'}`,
        ],
        l,
      ),
    );
  }
  for (const salon of doc.salons) {
    const settings = salonSettings.get(salon.salon.id) ?? { timezone: 'Europe/Oslo', currency: 'NOK' };
    out.push(...salonLines(salon, l, lang, settings.timezone, settings.currency));
  }
  return `${out.join('\n')}\n`;
}
