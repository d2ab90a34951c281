/** The Today page's words: its sections, their empty texts, and the notes beside each stay, request, payment and task. */
import { defineMessages } from '../i18n/messages.js';

export const todayMessages = defineMessages({
  title: 'Today',
  nothingReadable: 'Your permissions do not include anything this page shows.',
  section: { failed: '{{title}} could not be loaded', loading: 'Loading: {{title}}' },
  stays: {
    arrivals: 'Arrivals', departures: 'Departures', inProgress: 'Stays in progress', noneInProgress: 'No guests staying over today.',
    today: 'Today, {{date}}', tomorrow: 'Tomorrow, {{date}}', none: 'None.', stay: 'Stay',
    guests_one: '{{count}} guest', guests_other: '{{count}} guests',
    until: 'until {{date}}', arrives: 'arrives {{time}}', since: 'since {{date}}',
    allBookings: 'All bookings', openCalendar: 'Open the calendar',
  },
  requests: {
    title: 'Requests waiting for you', none: 'No booking request is waiting.', asked: 'asked {{moment}}',
    accept: 'Accept', decline: 'Decline', name: 'request {{reference}}',
  },
  overdue: {
    title: 'Payments overdue', none: 'No payment is overdue.', booking: 'Booking', due: 'due {{moment}}',
    status: { pending: 'pending', paid: 'paid', failed: 'failed', cancelled: 'cancelled', expired: 'expired' },
  },
  tasks: { title: 'Tasks due today', none: 'No task is due today.', onBoard: 'Open the task board', onMyTasks: 'Open my tasks', done: 'done', open: 'open' },
  sync: {
    title: 'iCal sync problems', none: 'Every imported calendar synced without problems.', open: 'Open iCal feeds',
    calendar: 'Imported calendar', lastSync: 'last sync {{moment}}',
  },
  month: { title: 'This month: {{month}}', open: 'Open reports', occupancy: 'Occupancy', revenue: 'Revenue' },
}, {
  nl: {
    title: 'Vandaag',
    nothingReadable: 'Met je rechten kun je niets zien van wat deze pagina toont.',
    section: { failed: 'Laden mislukt: {{title}}', loading: 'Laden: {{title}}' },
    stays: {
      arrivals: 'Aankomsten', departures: 'Vertrekken', inProgress: 'Lopende verblijven', noneInProgress: 'Er logeren vandaag geen gasten.',
      today: 'Vandaag, {{date}}', tomorrow: 'Morgen, {{date}}', none: 'Geen.', stay: 'Verblijf',
      guests_one: '{{count}} gast', guests_other: '{{count}} gasten',
      until: 'tot {{date}}', arrives: 'komt om {{time}}', since: 'sinds {{date}}',
      allBookings: 'Alle boekingen', openCalendar: 'Open de kalender',
    },
    requests: {
      title: 'Aanvragen die op je wachten', none: 'Er wacht geen boekingsaanvraag.', asked: 'aangevraagd {{moment}}',
      accept: 'Accepteren', decline: 'Afwijzen', name: '(aanvraag {{reference}})',
    },
    overdue: {
      title: 'Achterstallige betalingen', none: 'Er is geen betaling achterstallig.', booking: 'Boeking', due: 'vervallen op {{moment}}',
      status: { pending: 'open', paid: 'betaald', failed: 'mislukt', cancelled: 'geannuleerd', expired: 'verlopen' },
    },
    tasks: { title: 'Taken voor vandaag', none: 'Er staat vandaag geen taak.', onBoard: 'Naar het takenbord', onMyTasks: 'Naar mijn taken', done: 'klaar', open: 'open' },
    sync: {
      title: 'Problemen met iCal-synchronisatie', none: 'Elke geïmporteerde kalender is zonder problemen gesynchroniseerd.', open: 'Open iCal-feeds',
      calendar: 'Geïmporteerde kalender', lastSync: 'laatst gesynchroniseerd {{moment}}',
    },
    month: { title: 'Deze maand: {{month}}', open: 'Open rapporten', occupancy: 'Bezetting', revenue: 'Omzet' },
  },
  de: {
    title: 'Heute',
    nothingReadable: 'Ihre Berechtigungen umfassen nichts von dem, was diese Seite zeigt.',
    section: { failed: 'Fehler beim Laden: {{title}}', loading: 'Wird geladen: {{title}}' },
    stays: {
      arrivals: 'Anreisen', departures: 'Abreisen', inProgress: 'Laufende Aufenthalte', noneInProgress: 'Heute übernachten keine Gäste.',
      today: 'Heute, {{date}}', tomorrow: 'Morgen, {{date}}', none: 'Keine.', stay: 'Aufenthalt',
      guests_one: '{{count}} Gast', guests_other: '{{count}} Gäste',
      until: 'bis {{date}}', arrives: 'Ankunft {{time}}', since: 'seit {{date}}',
      allBookings: 'Alle Buchungen', openCalendar: 'Kalender öffnen',
    },
    requests: {
      title: 'Anfragen, die auf Sie warten', none: 'Keine Buchungsanfrage wartet.', asked: 'angefragt {{moment}}',
      accept: 'Annehmen', decline: 'Ablehnen', name: '(Anfrage {{reference}})',
    },
    overdue: {
      title: 'Überfällige Zahlungen', none: 'Keine Zahlung ist überfällig.', booking: 'Buchung', due: 'fällig am {{moment}}',
      status: { pending: 'offen', paid: 'bezahlt', failed: 'fehlgeschlagen', cancelled: 'storniert', expired: 'abgelaufen' },
    },
    tasks: { title: 'Heute fällige Aufgaben', none: 'Heute ist keine Aufgabe fällig.', onBoard: 'Zur Aufgabentafel', onMyTasks: 'Zu meinen Aufgaben', done: 'erledigt', open: 'offen' },
    sync: {
      title: 'Probleme beim iCal-Abgleich', none: 'Alle importierten Kalender wurden ohne Probleme abgeglichen.', open: 'iCal-Feeds öffnen',
      calendar: 'Importierter Kalender', lastSync: 'zuletzt abgeglichen {{moment}}',
    },
    month: { title: 'Dieser Monat: {{month}}', open: 'Berichte öffnen', occupancy: 'Auslastung', revenue: 'Umsatz' },
  },
});
