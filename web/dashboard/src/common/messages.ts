/** Words every page uses: actions, states, a booking's status, the error box's frame and the confirm button. */
import { defineMessages } from '../i18n/messages.js';

export const commonMessages = defineMessages({
  save: 'Save', saved: 'Saved', cancel: 'Cancel', delete: 'Delete', edit: 'Edit', add: 'Add', close: 'Close', back: 'Back',
  create: 'Create', remove: 'Remove', confirm: 'Confirm', copy: 'Copy', copied: 'Copied', search: 'Search', retry: 'Try again',
  loading: 'Loading', none: 'None', yes: 'Yes', no: 'No', all: 'All', previous: 'Previous', next: 'Next', today: 'Today',
  error: { title: 'Something went wrong', code: 'Code' },
  noPermission: 'You may not see this.',
  /** A booking's status (calendar_events.status), as its badge shows it. */
  status: { CONFIRMED: 'confirmed', TENTATIVE: 'tentative', CANCELLED: 'cancelled' },
  /** The confirm button's second step: `action` is the button's own text. */
  confirmButton: { yes: 'Yes, {{action}}', keep: 'Keep' },
  /** Renaming a name written in several languages in place (RenameForm.tsx). */
  rename: { action: 'Rename', named: 'Rename {{name}}', name: 'Name', nameIn: 'Name in {{language}}', empty: 'The name cannot be empty.' },
}, {
  nl: {
    save: 'Opslaan', saved: 'Opgeslagen', cancel: 'Annuleren', delete: 'Verwijderen', edit: 'Bewerken', add: 'Toevoegen', close: 'Sluiten', back: 'Terug',
    create: 'Aanmaken', remove: 'Weghalen', confirm: 'Bevestigen', copy: 'Kopiëren', copied: 'Gekopieerd', search: 'Zoeken', retry: 'Opnieuw proberen',
    loading: 'Laden', none: 'Geen', yes: 'Ja', no: 'Nee', all: 'Alle', previous: 'Vorige', next: 'Volgende', today: 'Vandaag',
    error: { title: 'Er ging iets mis', code: 'Code' },
    noPermission: 'Je mag dit niet zien.',
    status: { CONFIRMED: 'bevestigd', TENTATIVE: 'voorlopig', CANCELLED: 'geannuleerd' },
    confirmButton: { yes: 'Ja, {{action}}', keep: 'Behouden' },
    rename: { action: 'Naam wijzigen', named: 'Naam wijzigen: {{name}}', name: 'Naam', nameIn: 'Naam in het {{language}}', empty: 'De naam mag niet leeg zijn.' },
  },
  de: {
    save: 'Speichern', saved: 'Gespeichert', cancel: 'Abbrechen', delete: 'Löschen', edit: 'Bearbeiten', add: 'Hinzufügen', close: 'Schließen', back: 'Zurück',
    create: 'Erstellen', remove: 'Entfernen', confirm: 'Bestätigen', copy: 'Kopieren', copied: 'Kopiert', search: 'Suchen', retry: 'Erneut versuchen',
    loading: 'Wird geladen', none: 'Keine', yes: 'Ja', no: 'Nein', all: 'Alle', previous: 'Zurück', next: 'Weiter', today: 'Heute',
    error: { title: 'Etwas ist schiefgelaufen', code: 'Code' },
    noPermission: 'Sie dürfen dies nicht sehen.',
    status: { CONFIRMED: 'bestätigt', TENTATIVE: 'vorläufig', CANCELLED: 'storniert' },
    confirmButton: { yes: 'Ja, {{action}}', keep: 'Behalten' },
    rename: { action: 'Umbenennen', named: 'Umbenennen: {{name}}', name: 'Name', nameIn: 'Name auf {{language}}', empty: 'Der Name darf nicht leer sein.' },
  },
});
