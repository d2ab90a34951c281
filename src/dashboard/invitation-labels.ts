/** The invitation e-mail's words, in the organization's language (en, nl, de; others read English). */
import { translator, type GuestLanguage, type Translate } from '../common/translate.js';

const en = {
  subject: '{inviter} invites you to {organization} on Staykit',
  body: 'Hello {name},\n\n{inviter} added you to {organization} on Staykit, where the bookings, the calendar and the tasks are kept.\n\n'
    + 'Choose your password here to log in (the link works once, for 72 hours):\n{link}\n\nYour login is this e-mail address: {email}\n',
};
export type InvitationLabels = typeof en;

const TABLES: Record<GuestLanguage, InvitationLabels> = {
  en,
  nl: {
    subject: '{inviter} nodigt je uit voor {organization} op Staykit',
    body: 'Hallo {name},\n\n{inviter} heeft je toegevoegd aan {organization} op Staykit, waar de boekingen, de agenda en de taken worden bijgehouden.\n\n'
      + 'Kies hier je wachtwoord om in te loggen (de link werkt één keer, 72 uur lang):\n{link}\n\nJe login is dit e-mailadres: {email}\n',
  },
  de: {
    subject: '{inviter} lädt Sie zu {organization} auf Staykit ein',
    body: 'Hallo {name},\n\n{inviter} hat Sie zu {organization} auf Staykit hinzugefügt, wo Buchungen, Kalender und Aufgaben geführt werden.\n\n'
      + 'Wählen Sie hier Ihr Passwort, um sich anzumelden (der Link gilt einmal, 72 Stunden lang):\n{link}\n\nIhr Login ist diese E-Mail-Adresse: {email}\n',
  },
};

export function invitationLabels(language: string): Translate<InvitationLabels> {
  return translator(TABLES, language);
}
