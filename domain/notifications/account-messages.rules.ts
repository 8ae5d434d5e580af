// Norwegian (nb-NO) texts of the messages to an account's owner (docs/rules/messages.md#account-messages):
// a password-reset link, a notice that a login's e-mail or phone changed, and a one-time phone code.
// Pure.
import type { RenderedMessage } from './booking-messages.rules';

export function renderPasswordReset(f: { salonName: string | null; link: string; validMinutes: number }): RenderedMessage {
  return {
    subject: 'Tilbakestill passordet ditt',
    text:
      `Noen har bedt om å tilbakestille passordet til kontoen din${f.salonName ? ` hos ${f.salonName}` : ''}.\n\n` +
      `Åpne ${f.link} innen ${f.validMinutes} minutter for å velge et nytt.\n` +
      'Var det ikke deg, kan du se bort fra denne e-posten.',
  };
}

export type ChangedContact = 'email' | 'phone';

const CONTACT_NAMES: Record<ChangedContact, string> = { email: 'e-postadressen', phone: 'telefonnummeret' };

/** To the address the login had before: it was changed, and what to do if it was not its owner. */
export function renderContactChanged(f: { salonName: string | null; changed: ChangedContact[]; at: string }): RenderedMessage {
  const what = f.changed.map((c) => CONTACT_NAMES[c]).join(' og ');
  return {
    subject: 'Kontaktopplysningene på kontoen din er endret',
    text:
      `${what.charAt(0).toUpperCase()}${what.slice(1)} på kontoen din${f.salonName ? ` hos ${f.salonName}` : ''} ble endret ${f.at}.\n\n` +
      'Var det ikke deg, kontakt salongen med en gang: noen kan ha tilgang til kontoen din.',
  };
}

export function renderPhoneCode(f: { code: string; validMinutes: number }): RenderedMessage {
  return { subject: 'Kode', text: `Koden din er ${f.code}. Den gjelder i ${f.validMinutes} minutter. Ikke del den med noen.` };
}
