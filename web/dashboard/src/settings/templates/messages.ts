/**
 * The words of the e-mail template and unit message editors. When a template is sent, what a moment counts from, for
 * which bookings and what it adds are maps keyed by the database's own lists (the CHECKs and enums of
 * `email_templates`, through the generated types): one added there without a name here does not compile, and the
 * editor offers these maps' keys (template-form.ts), so it always offers every one.
 */
import type { Enums, Row } from '../../api/database';
import type { Moment } from '../../api/json-columns';
import { defineMessages } from '../../i18n/messages.js';

/** The template's flags: its `include_…` columns. */
export type Flag = Extract<keyof Row<'email_templates'>, `include_${string}`>;

export const templatesMessages = defineMessages({
  trigger: {
    created: 'When a booking is made',
    confirmed: 'When a booking is confirmed',
    cancelled: 'When a booking is cancelled',
    updated: "When a booking's dates or unit change",
    moment: 'At a moment of the stay',
    payment_received: 'When a payment is received',
    payment_due: 'Before a payment is due',
    manual: 'Never on its own',
  } satisfies Record<Enums<'email_templates_trigger'>, string>,
  momentType: {
    'check-in': 'days from arrival',
    'on-site': 'days from the day after arrival',
    checkout: 'days from departure',
    confirmation: 'days after confirmation',
    request: 'days after the request',
  } satisfies Record<Moment['type'], string>,
  status: { CONFIRMED: 'Confirmed bookings', TENTATIVE: 'Requests (not yet confirmed)', CANCELLED: 'Cancelled bookings' } satisfies Record<Enums<'email_templates_status'>, string>,
  flag: {
    include_booking_details: 'Add the booking details (stay, unit, lines, total)',
    include_booking_link: "Add the link to the guest's booking page",
    include_ical_data: 'Attach the stay as a calendar file (.ics)',
    include_product_image: "Show the unit's cover photo",
  } satisfies Record<Flag, string>,
  pastSchedule: { skip: 'Skip it', send: 'Send at once' } satisfies Record<Enums<'email_templates_past_schedule_behavior'>, string>,
  paymentDue: "days from a payment's due date",
  when: '{{offset}} {{counted}}',
  label: '{{subject}} — {{when}}', labelDisabled: '{{subject}} — {{when}} (disabled)', noSubject: '(no subject)',
  texts: { defaultNote: 'Guests whose language has no text of its own read this one.', subject: 'Subject ({{language}})', body: 'Body ({{language}})' },
  variables: { title: 'Variables', help: 'Click one to insert it where the cursor is.' },
  moment: { days: 'Days', counted: 'Counted' },
  editor: {
    edit: 'Edit template', new: 'New template', saveFailed: 'The template was not saved', active: 'Active: sent on its own', sent: 'Sent',
    at: "At (the unit's time)", pastMoment: 'When the moment has passed', for: 'For',
    everyUnit: "Sent for the bookings of every unit — unless a unit message uses it: then only for that message's units (Unit messages).",
    attachments: 'Attachments', noAttachments: 'None.', removeFile: 'Remove {{file}}', attach: 'Attach a file', unreadable: '{{file}} could not be read',
    create: 'Create template', duplicate: 'Duplicate', deleteQuestion: 'Delete this template?',
  },
  preview: {
    region: 'Preview', forBooking: 'Preview for booking', chooseBooking: 'Choose a booking', sendTest: 'Send a test to me', rendering: 'Rendering the preview',
    testSent: 'Test sent', testSentText: '{{subject}} was sent to {{to}}.', noBookings: 'There are no bookings to preview the template for yet.',
    header: 'To {{to}} · from {{from}} · {{language}}', noGuestEmail: '(the guest has no e-mail address)', subject: 'Preview subject',
    attached: 'Attached: {{files}}', html: 'HTML version', text: 'Text version',
  },
  message: {
    edit: 'Edit unit message', new: 'New unit message', needName: 'Give the message a name.', saveFailed: 'The message was not saved',
    name: 'Name', nameHelp: 'For you; guests do not see it.', basedOn: 'Based on the e-mail template',
    basedOnHelp: 'Its texts where this message has none, when it is sent, and what it adds.', basedOnNone: 'None: its own texts and moment',
    onlyThrough: 'While this message is active, that e-mail template is sent only through it: to the units chosen below, not to every unit.',
    defaultNote: "Empty: the e-mail template's text. Guests whose language has no text of its own read this one.",
    ownMoment: 'Its own moment', neverSent: 'Without a moment or an e-mail template this message is never sent.',
    units: 'Sent for the bookings of', unitsHelp: "Only these units' bookings get this message.", noUnits: 'No units yet.',
    active: 'Active: sent on its own', create: 'Create message', deleteQuestion: 'Delete this message?',
  },
}, {
  nl: {
    trigger: {
      created: 'Wanneer een boeking wordt gemaakt',
      confirmed: 'Wanneer een boeking wordt bevestigd',
      cancelled: 'Wanneer een boeking wordt geannuleerd',
      updated: 'Wanneer de data of de accommodatie van een boeking wijzigen',
      moment: 'Op een moment van het verblijf',
      payment_received: 'Wanneer een betaling binnenkomt',
      payment_due: 'Voordat een betaling vervalt',
      manual: 'Nooit vanzelf',
    },
    momentType: {
      'check-in': 'dagen vanaf aankomst',
      'on-site': 'dagen vanaf de dag na aankomst',
      checkout: 'dagen vanaf vertrek',
      confirmation: 'dagen na bevestiging',
      request: 'dagen na de aanvraag',
    },
    status: { CONFIRMED: 'Bevestigde boekingen', TENTATIVE: 'Aanvragen (nog niet bevestigd)', CANCELLED: 'Geannuleerde boekingen' },
    flag: {
      include_booking_details: 'De boekingsgegevens toevoegen (verblijf, accommodatie, regels, totaal)',
      include_booking_link: 'De link naar de boekingspagina van de gast toevoegen',
      include_ical_data: 'Het verblijf als agendabestand (.ics) bijvoegen',
      include_product_image: 'De omslagfoto van de accommodatie tonen',
    },
    pastSchedule: { skip: 'Overslaan', send: 'Meteen versturen' },
    paymentDue: 'dagen vanaf de vervaldatum van een betaling',
    when: '{{offset}} {{counted}}',
    label: '{{subject}} — {{when}}', labelDisabled: '{{subject}} — {{when}} (uitgeschakeld)', noSubject: '(geen onderwerp)',
    texts: { defaultNote: 'Gasten van wie de taal geen eigen tekst heeft, lezen deze.', subject: 'Onderwerp ({{language}})', body: 'Tekst ({{language}})' },
    variables: { title: 'Variabelen', help: 'Klik op een variabele om hem in te voegen waar de cursor staat.' },
    moment: { days: 'Dagen', counted: 'Geteld' },
    editor: {
      edit: 'Sjabloon bewerken', new: 'Nieuw sjabloon', saveFailed: 'Het sjabloon is niet opgeslagen', active: 'Actief: wordt vanzelf verstuurd', sent: 'Verstuurd',
      at: 'Om (tijd van de accommodatie)', pastMoment: 'Als het moment voorbij is', for: 'Voor',
      everyUnit: 'Verstuurd voor de boekingen van elke accommodatie — tenzij een bericht per accommodatie het gebruikt: dan alleen voor de accommodaties van dat bericht (Berichten per accommodatie).',
      attachments: 'Bijlagen', noAttachments: 'Geen.', removeFile: '{{file}} weghalen', attach: 'Bestand bijvoegen', unreadable: '{{file}} kon niet worden gelezen',
      create: 'Sjabloon aanmaken', duplicate: 'Dupliceren', deleteQuestion: 'Dit sjabloon verwijderen?',
    },
    preview: {
      region: 'Voorbeeld', forBooking: 'Voorbeeld voor boeking', chooseBooking: 'Kies een boeking', sendTest: 'Test naar mij sturen', rendering: 'Voorbeeld wordt gemaakt',
      testSent: 'Test verstuurd', testSentText: '{{subject}} is verstuurd naar {{to}}.', noBookings: 'Er zijn nog geen boekingen om een voorbeeld van het sjabloon voor te tonen.',
      header: 'Aan {{to}} · van {{from}} · {{language}}', noGuestEmail: '(de gast heeft geen e-mailadres)', subject: 'Onderwerp van het voorbeeld',
      attached: 'Bijgevoegd: {{files}}', html: 'HTML-versie', text: 'Tekstversie',
    },
    message: {
      edit: 'Bericht bewerken', new: 'Nieuw bericht', needName: 'Geef het bericht een naam.', saveFailed: 'Het bericht is niet opgeslagen',
      name: 'Naam', nameHelp: 'Voor jezelf; gasten zien hem niet.', basedOn: 'Gebaseerd op het e-mailsjabloon',
      basedOnHelp: 'De teksten ervan waar dit bericht er geen heeft, wanneer het wordt verstuurd, en wat het toevoegt.', basedOnNone: 'Geen: eigen teksten en moment',
      onlyThrough: 'Zolang dit bericht actief is, wordt dat e-mailsjabloon alleen via dit bericht verstuurd: naar de accommodaties hieronder, niet naar elke accommodatie.',
      defaultNote: 'Leeg: de tekst van het e-mailsjabloon. Gasten van wie de taal geen eigen tekst heeft, lezen deze.',
      ownMoment: 'Eigen moment', neverSent: 'Zonder moment of e-mailsjabloon wordt dit bericht nooit verstuurd.',
      units: 'Verstuurd voor de boekingen van', unitsHelp: 'Alleen de boekingen van deze accommodaties krijgen dit bericht.', noUnits: 'Nog geen accommodaties.',
      active: 'Actief: wordt vanzelf verstuurd', create: 'Bericht aanmaken', deleteQuestion: 'Dit bericht verwijderen?',
    },
  },
  de: {
    trigger: {
      created: 'Wenn eine Buchung eingeht',
      confirmed: 'Wenn eine Buchung bestätigt wird',
      cancelled: 'Wenn eine Buchung storniert wird',
      updated: 'Wenn sich Daten oder Unterkunft einer Buchung ändern',
      moment: 'Zu einem Zeitpunkt des Aufenthalts',
      payment_received: 'Wenn eine Zahlung eingeht',
      payment_due: 'Bevor eine Zahlung fällig wird',
      manual: 'Nie von selbst',
    },
    momentType: {
      'check-in': 'Tage ab Anreise',
      'on-site': 'Tage ab dem Tag nach der Anreise',
      checkout: 'Tage ab Abreise',
      confirmation: 'Tage nach der Bestätigung',
      request: 'Tage nach der Anfrage',
    },
    status: { CONFIRMED: 'Bestätigte Buchungen', TENTATIVE: 'Anfragen (noch nicht bestätigt)', CANCELLED: 'Stornierte Buchungen' },
    flag: {
      include_booking_details: 'Buchungsdetails hinzufügen (Aufenthalt, Unterkunft, Posten, Summe)',
      include_booking_link: 'Den Link zur Buchungsseite des Gastes hinzufügen',
      include_ical_data: 'Den Aufenthalt als Kalenderdatei (.ics) anhängen',
      include_product_image: 'Das Titelbild der Unterkunft zeigen',
    },
    pastSchedule: { skip: 'Überspringen', send: 'Sofort senden' },
    paymentDue: 'Tage ab dem Fälligkeitsdatum einer Zahlung',
    when: '{{offset}} {{counted}}',
    label: '{{subject}} — {{when}}', labelDisabled: '{{subject}} — {{when}} (deaktiviert)', noSubject: '(kein Betreff)',
    texts: { defaultNote: 'Gäste, deren Sprache keinen eigenen Text hat, lesen diesen.', subject: 'Betreff ({{language}})', body: 'Text ({{language}})' },
    variables: { title: 'Variablen', help: 'Klicken Sie auf eine Variable, um sie an der Cursorposition einzufügen.' },
    moment: { days: 'Tage', counted: 'Gezählt' },
    editor: {
      edit: 'Vorlage bearbeiten', new: 'Neue Vorlage', saveFailed: 'Die Vorlage wurde nicht gespeichert', active: 'Aktiv: wird von selbst gesendet', sent: 'Gesendet',
      at: 'Um (Zeit der Unterkunft)', pastMoment: 'Wenn der Zeitpunkt vorbei ist', for: 'Für',
      everyUnit: 'Gesendet für die Buchungen jeder Unterkunft — außer eine Nachricht je Unterkunft verwendet sie: dann nur für deren Unterkünfte (Nachrichten je Unterkunft).',
      attachments: 'Anhänge', noAttachments: 'Keine.', removeFile: '{{file}} entfernen', attach: 'Datei anhängen', unreadable: '{{file}} konnte nicht gelesen werden',
      create: 'Vorlage erstellen', duplicate: 'Duplizieren', deleteQuestion: 'Diese Vorlage löschen?',
    },
    preview: {
      region: 'Vorschau', forBooking: 'Vorschau für Buchung', chooseBooking: 'Buchung wählen', sendTest: 'Test an mich senden', rendering: 'Vorschau wird erstellt',
      testSent: 'Test gesendet', testSentText: '{{subject}} wurde an {{to}} gesendet.', noBookings: 'Es gibt noch keine Buchungen, für die die Vorlage angezeigt werden kann.',
      header: 'An {{to}} · von {{from}} · {{language}}', noGuestEmail: '(der Gast hat keine E-Mail-Adresse)', subject: 'Betreff der Vorschau',
      attached: 'Angehängt: {{files}}', html: 'HTML-Version', text: 'Textversion',
    },
    message: {
      edit: 'Nachricht bearbeiten', new: 'Neue Nachricht', needName: 'Geben Sie der Nachricht einen Namen.', saveFailed: 'Die Nachricht wurde nicht gespeichert',
      name: 'Name', nameHelp: 'Für Sie; Gäste sehen ihn nicht.', basedOn: 'Basiert auf der E-Mail-Vorlage',
      basedOnHelp: 'Deren Texte, wo diese Nachricht keine hat, wann sie gesendet wird und was sie hinzufügt.', basedOnNone: 'Keine: eigene Texte und eigener Zeitpunkt',
      onlyThrough: 'Solange diese Nachricht aktiv ist, wird diese E-Mail-Vorlage nur über sie gesendet: an die unten gewählten Unterkünfte, nicht an jede Unterkunft.',
      defaultNote: 'Leer: der Text der E-Mail-Vorlage. Gäste, deren Sprache keinen eigenen Text hat, lesen diesen.',
      ownMoment: 'Eigener Zeitpunkt', neverSent: 'Ohne Zeitpunkt oder E-Mail-Vorlage wird diese Nachricht nie gesendet.',
      units: 'Gesendet für die Buchungen von', unitsHelp: 'Nur die Buchungen dieser Unterkünfte erhalten diese Nachricht.', noUnits: 'Noch keine Unterkünfte.',
      active: 'Aktiv: wird von selbst gesendet', create: 'Nachricht erstellen', deleteQuestion: 'Diese Nachricht löschen?',
    },
  },
});
