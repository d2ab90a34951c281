/**
 * The calendar's words: the month's timeline, its legend and bars, picking days, blocks and what a refused overlap
 * says. Statuses are keyed by the calendar's status type, so a status the database gains needs its words here.
 */
import type { Database } from '../../../../schema/database.types.js';
import { defineMessages } from '../i18n/messages.js';

/** From the schema, not the dashboard's api/database.ts: the server's tests read this file. */
type Status = Database['api']['Enums']['calendar_events_status'];

export const calendarMessages = defineMessages({
  title: 'Calendar', previousMonth: 'Previous month', nextMonth: 'Next month', month: 'Month: {{month}}', addBlock: 'Add block',
  showCancelled: 'Show cancelled', loadFailed: 'The calendar could not be loaded', loading: 'Loading the calendar',
  loadingText: 'Loading the calendar…', unnamedUnit: 'Unit {{number}}',
  firstPicked: 'First day {{date}} selected: now pick the last day (Escape cancels).',
  pick: {
    both: 'Pick the first and the last free day of a unit to block or book them.',
    block: 'Pick the first and the last free day of a unit to block them.',
    booking: 'Pick the first and the last free day of a unit to book them.',
  },
  choices: { block: 'Block', booking: 'Booking' },
  statuses: { CONFIRMED: 'confirmed', TENTATIVE: 'tentative', CANCELLED: 'cancelled' } satisfies Record<Status, string>,
  legend: {
    title: 'Legend', CONFIRMED: 'Confirmed booking', TENTATIVE: 'Tentative booking', blocked: 'Blocked', imported: 'Imported (iCal)',
    CANCELLED: 'Cancelled', task: 'Task due',
  },
  grid: {
    empty: 'No units yet: add one under Units and prices.', table: 'Calendar of {{month}}', unit: 'Unit',
    booking: 'Booking {{reference}} {{name}}', bookingFallback: 'Booking', block: 'Block {{title}}', blocked: 'Blocked', ical: 'iCal',
    importedBlock: 'Imported block', importedFrom: 'Imported block from {{feed}}', bar: '{{what}}, {{start}} – {{end}}, {{status}}',
    task: 'Task: {{label}}, due {{due}}', taskDone: 'Task: {{label}}, due {{due}} (done)', taskDoneLabel: 'Task: {{label}}, due {{due}}, done',
  },
  block: {
    add: 'Add a block', failed: 'The block was not added', incomplete: 'Choose a unit and the first and last day to block.',
    unit: 'Unit', days: 'Days', title: 'Title', defaultTitle: 'Blocked', submit: 'Block these days',
  },
  event: {
    booking: 'Booking', importedBlock: 'Imported block', block: 'Block', removeFailed: 'The block was not removed',
    importedFrom: 'Imported from {{feed}}: change it in that calendar; the next sync brings it here.', anIcalFeed: 'an iCal feed',
    removeQuestion: 'Remove this block? Its days become bookable.', remove: 'Remove block', dates: '{{start}} – {{end}} ({{status}})',
  },
  overlap: {
    taken: 'These dates are taken by {{holders}}.',
    hint: 'Choose other days, or move or cancel what holds them (a cooldown after a stay counts too).',
    booking: 'booking {{reference}}', bookingOf: 'booking {{reference}} ({{guest}})', block: 'the block "{{title}}"',
    holder: '{{who}}, {{start}} – {{end}}',
  },
}, {
  nl: {
    title: 'Kalender', previousMonth: 'Vorige maand', nextMonth: 'Volgende maand', month: 'Maand: {{month}}', addBlock: 'Blokkade toevoegen',
    showCancelled: 'Geannuleerde tonen', loadFailed: 'De kalender kon niet worden geladen', loading: 'Kalender laden',
    loadingText: 'Kalender laden…', unnamedUnit: 'Accommodatie {{number}}',
    firstPicked: 'Eerste dag {{date}} gekozen: kies nu de laatste dag (Escape annuleert).',
    pick: {
      both: 'Kies de eerste en de laatste vrije dag van een accommodatie om ze te blokkeren of te boeken.',
      block: 'Kies de eerste en de laatste vrije dag van een accommodatie om ze te blokkeren.',
      booking: 'Kies de eerste en de laatste vrije dag van een accommodatie om ze te boeken.',
    },
    choices: { block: 'Blokkade', booking: 'Boeking' },
    statuses: { CONFIRMED: 'bevestigd', TENTATIVE: 'voorlopig', CANCELLED: 'geannuleerd' },
    legend: {
      title: 'Legenda', CONFIRMED: 'Bevestigde boeking', TENTATIVE: 'Voorlopige boeking', blocked: 'Geblokkeerd', imported: 'Geïmporteerd (iCal)',
      CANCELLED: 'Geannuleerd', task: 'Taak te doen',
    },
    grid: {
      empty: 'Nog geen accommodaties: voeg er een toe onder Accommodaties en prijzen.', table: 'Kalender van {{month}}', unit: 'Accommodatie',
      booking: 'Boeking {{reference}} {{name}}', bookingFallback: 'Boeking', block: 'Blokkade {{title}}', blocked: 'Geblokkeerd', ical: 'iCal',
      importedBlock: 'Geïmporteerde blokkade', importedFrom: 'Geïmporteerde blokkade uit {{feed}}', bar: '{{what}}, {{start}} – {{end}}, {{status}}',
      task: 'Taak: {{label}}, uiterlijk {{due}}', taskDone: 'Taak: {{label}}, uiterlijk {{due}} (gedaan)', taskDoneLabel: 'Taak: {{label}}, uiterlijk {{due}}, gedaan',
    },
    block: {
      add: 'Blokkade toevoegen', failed: 'De blokkade is niet toegevoegd', incomplete: 'Kies een accommodatie en de eerste en laatste dag om te blokkeren.',
      unit: 'Accommodatie', days: 'Dagen', title: 'Titel', defaultTitle: 'Geblokkeerd', submit: 'Deze dagen blokkeren',
    },
    event: {
      booking: 'Boeking', importedBlock: 'Geïmporteerde blokkade', block: 'Blokkade', removeFailed: 'De blokkade is niet weggehaald',
      importedFrom: 'Geïmporteerd uit {{feed}}: wijzig het in die kalender; de volgende synchronisatie brengt het hierheen.', anIcalFeed: 'een iCal-feed',
      removeQuestion: 'Deze blokkade weghalen? De dagen worden weer boekbaar.', remove: 'Blokkade weghalen', dates: '{{start}} – {{end}} ({{status}})',
    },
    overlap: {
      taken: 'Deze datums zijn bezet door {{holders}}.',
      hint: 'Kies andere dagen, of verplaats of annuleer wat ze bezet (een vrije periode na een verblijf telt ook mee).',
      booking: 'boeking {{reference}}', bookingOf: 'boeking {{reference}} ({{guest}})', block: 'de blokkade "{{title}}"',
      holder: '{{who}}, {{start}} – {{end}}',
    },
  },
  de: {
    title: 'Kalender', previousMonth: 'Vorheriger Monat', nextMonth: 'Nächster Monat', month: 'Monat: {{month}}', addBlock: 'Sperre hinzufügen',
    showCancelled: 'Stornierte anzeigen', loadFailed: 'Der Kalender konnte nicht geladen werden', loading: 'Kalender wird geladen',
    loadingText: 'Kalender wird geladen…', unnamedUnit: 'Unterkunft {{number}}',
    firstPicked: 'Erster Tag {{date}} gewählt: Wählen Sie jetzt den letzten Tag (Escape bricht ab).',
    pick: {
      both: 'Wählen Sie den ersten und den letzten freien Tag einer Unterkunft, um die Tage zu sperren oder zu buchen.',
      block: 'Wählen Sie den ersten und den letzten freien Tag einer Unterkunft, um die Tage zu sperren.',
      booking: 'Wählen Sie den ersten und den letzten freien Tag einer Unterkunft, um die Tage zu buchen.',
    },
    choices: { block: 'Sperre', booking: 'Buchung' },
    statuses: { CONFIRMED: 'bestätigt', TENTATIVE: 'vorläufig', CANCELLED: 'storniert' },
    legend: {
      title: 'Legende', CONFIRMED: 'Bestätigte Buchung', TENTATIVE: 'Vorläufige Buchung', blocked: 'Gesperrt', imported: 'Importiert (iCal)',
      CANCELLED: 'Storniert', task: 'Fällige Aufgabe',
    },
    grid: {
      empty: 'Noch keine Unterkünfte: Fügen Sie eine unter Unterkünfte und Preise hinzu.', table: 'Kalender für {{month}}', unit: 'Unterkunft',
      booking: 'Buchung {{reference}} {{name}}', bookingFallback: 'Buchung', block: 'Sperre {{title}}', blocked: 'Gesperrt', ical: 'iCal',
      importedBlock: 'Importierte Sperre', importedFrom: 'Importierte Sperre aus {{feed}}', bar: '{{what}}, {{start}} – {{end}}, {{status}}',
      task: 'Aufgabe: {{label}}, fällig {{due}}', taskDone: 'Aufgabe: {{label}}, fällig {{due}} (erledigt)', taskDoneLabel: 'Aufgabe: {{label}}, fällig {{due}}, erledigt',
    },
    block: {
      add: 'Sperre hinzufügen', failed: 'Die Sperre wurde nicht hinzugefügt', incomplete: 'Wählen Sie eine Unterkunft und den ersten und letzten zu sperrenden Tag.',
      unit: 'Unterkunft', days: 'Tage', title: 'Titel', defaultTitle: 'Gesperrt', submit: 'Diese Tage sperren',
    },
    event: {
      booking: 'Buchung', importedBlock: 'Importierte Sperre', block: 'Sperre', removeFailed: 'Die Sperre wurde nicht entfernt',
      importedFrom: 'Importiert aus {{feed}}: Ändern Sie dies in jenem Kalender; die nächste Synchronisierung überträgt es hierher.', anIcalFeed: 'einem iCal-Feed',
      removeQuestion: 'Diese Sperre entfernen? Ihre Tage werden wieder buchbar.', remove: 'Sperre entfernen', dates: '{{start}} – {{end}} ({{status}})',
    },
    overlap: {
      taken: 'Diese Daten sind belegt durch {{holders}}.',
      hint: 'Wählen Sie andere Tage, oder verschieben bzw. stornieren Sie, was sie belegt (eine Pause nach einem Aufenthalt zählt auch).',
      booking: 'Buchung {{reference}}', bookingOf: 'Buchung {{reference}} ({{guest}})', block: 'die Sperre „{{title}}“',
      holder: '{{who}}, {{start}} – {{end}}',
    },
  },
});
