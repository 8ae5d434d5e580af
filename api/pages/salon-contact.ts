// How the customer reaches the salon (docs/rules/salon.md#tenant): its phone as a tel: link and its
// e-mail as a mailto: link, beside every text that tells the customer to contact the salon and in
// every page's footer. A salon with neither gets nothing here (the texts still say "contact the
// salon"; the onboarding review warns the owner, SALON_CONTACT_MISSING).
import { html, type Html } from './html';
import { t } from '../../web/shared/i18n';
import type { Lang } from '../../web/shared/format';
import { displayPhone } from '../../domain/phone/phone.rules';

export interface SalonContact {
  contactPhone?: string | null;
  contactEmail?: string | null;
}

/** "Telefon: +47 22 00 00 00 · E-post: post@salong.no" as links; empty when the salon has neither. */
export function salonContact(lang: Lang, salon: SalonContact): Html | '' {
  const parts: Html[] = [];
  if (salon.contactPhone) parts.push(html`${t(lang, 'salonPhone')}: <a href="tel:${salon.contactPhone}">${displayPhone(salon.contactPhone)}</a>`);
  if (salon.contactEmail) parts.push(html`${t(lang, 'salonEmail')}: <a href="mailto:${salon.contactEmail}">${salon.contactEmail}</a>`);
  if (!parts.length) return '';
  return html`<p class="salon-contact">${parts[0]}${parts[1] ? html` · ${parts[1]}` : ''}</p>`;
}
