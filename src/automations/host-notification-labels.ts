/**
 * The words of the e-mails that tell the host (host-notification.ts), in the organization's language. The
 * notification names are the database's (staykit_internal.host_notification_kinds(), migration 0219).
 */
import { translator, type GuestLanguage, type Translate } from '../common/translate.js';

export const HOST_NOTIFICATIONS = [
  'booking.created', 'booking.requested', 'booking.cancelled', 'booking.cancellation_requested', 'messages.received',
] as const;
export type HostNotification = (typeof HOST_NOTIFICATIONS)[number];

const en = {
  'booking.created': 'New booking {reference}: {unit}, {dates}',
  'booking.requested': 'Booking request {reference}: {unit}, {dates} — please confirm or decline',
  'booking.cancelled': 'Booking {reference} cancelled: {unit}, {dates}',
  'booking.cancellation_requested': 'Cancellation request for booking {reference}: {unit}, {dates}',
  'messages.received': 'New message about booking {reference}: {unit}, {dates}',
  hello: 'Hello {name},',
  intro_created: '{guest} booked {unit}.',
  intro_requested: '{guest} asks to book {unit}. The dates are held until you confirm or decline the request.',
  intro_cancelled: 'The booking of {guest} at {unit} was cancelled.',
  intro_cancellation_requested: '{guest} asks to cancel their booking at {unit}.',
  intro_message_received: '{guest} wrote about their stay at {unit}. Answer in the inbox.',
  theirMessage: 'Their message:',
  arrival: 'Arrival: {date}', departure: 'Departure: {date}', guests: 'Guests: {count}',
  guest: 'Guest: {details}', total: 'Total: {amount}', open: 'Open the booking: {url}',
  why: 'You get this e-mail because of your notification settings in Staykit (Members).',
  aGuest: 'A guest',
};
export type HostNotificationLabels = typeof en;

const TABLES: Record<GuestLanguage, HostNotificationLabels> = {
  en,
  nl: {
    'booking.created': 'Nieuwe boeking {reference}: {unit}, {dates}',
    'booking.requested': 'Boekingsaanvraag {reference}: {unit}, {dates} — bevestig of wijs af',
    'booking.cancelled': 'Boeking {reference} geannuleerd: {unit}, {dates}',
    'booking.cancellation_requested': 'Annuleringsverzoek voor boeking {reference}: {unit}, {dates}',
    'messages.received': 'Nieuw bericht over boeking {reference}: {unit}, {dates}',
    hello: 'Hallo {name},',
    intro_created: '{guest} heeft {unit} geboekt.',
    intro_requested: '{guest} wil {unit} boeken. De data blijven vrijgehouden tot je de aanvraag bevestigt of afwijst.',
    intro_cancelled: 'De boeking van {guest} in {unit} is geannuleerd.',
    intro_cancellation_requested: '{guest} wil de boeking in {unit} annuleren.',
    intro_message_received: '{guest} schreef over het verblijf in {unit}. Antwoord in de inbox.',
    theirMessage: 'Het bericht van de gast:',
    arrival: 'Aankomst: {date}', departure: 'Vertrek: {date}', guests: 'Gasten: {count}',
    guest: 'Gast: {details}', total: 'Totaal: {amount}', open: 'Boeking openen: {url}',
    why: 'Je ontvangt deze e-mail door je meldingsinstellingen in Staykit (Leden).',
    aGuest: 'Een gast',
  },
  de: {
    'booking.created': 'Neue Buchung {reference}: {unit}, {dates}',
    'booking.requested': 'Buchungsanfrage {reference}: {unit}, {dates} — bitte bestätigen oder ablehnen',
    'booking.cancelled': 'Buchung {reference} storniert: {unit}, {dates}',
    'booking.cancellation_requested': 'Stornierungsanfrage für Buchung {reference}: {unit}, {dates}',
    'messages.received': 'Neue Nachricht zur Buchung {reference}: {unit}, {dates}',
    hello: 'Hallo {name},',
    intro_created: '{guest} hat {unit} gebucht.',
    intro_requested: '{guest} möchte {unit} buchen. Die Daten bleiben reserviert, bis Sie die Anfrage bestätigen oder ablehnen.',
    intro_cancelled: 'Die Buchung von {guest} in {unit} wurde storniert.',
    intro_cancellation_requested: '{guest} möchte die Buchung in {unit} stornieren.',
    intro_message_received: '{guest} hat zum Aufenthalt in {unit} geschrieben. Antworten Sie im Posteingang.',
    theirMessage: 'Die Nachricht des Gastes:',
    arrival: 'Anreise: {date}', departure: 'Abreise: {date}', guests: 'Gäste: {count}',
    guest: 'Gast: {details}', total: 'Gesamt: {amount}', open: 'Buchung öffnen: {url}',
    why: 'Sie erhalten diese E-Mail aufgrund Ihrer Benachrichtigungseinstellungen in Staykit (Mitglieder).',
    aGuest: 'Ein Gast',
  },
};

export function hostNotificationLabels(language: string): Translate<HostNotificationLabels> {
  return translator(TABLES, language);
}
