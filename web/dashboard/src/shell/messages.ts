/** The frame's words: the navigation, the header, the login and set-password pages and "page not found". */
import { defineMessages } from '../i18n/messages.js';

/** The product's name, the same in every language. */
export const PRODUCT_NAME = 'Staykit';

export const shellMessages = defineMessages({
  navigation: {
    today: 'Today', calendar: 'Calendar', bookings: 'Bookings', inbox: 'Inbox', units: 'Units and prices', widgets: 'Widgets', reports: 'Reports', tasks: 'Tasks', myTasks: 'My tasks',
    apiKeys: 'API keys', webhooks: 'Webhooks', ical: 'iCal feeds', templates: 'E-mail templates', unitMessages: 'Unit messages',
    members: 'Members', organization: 'Organization', terms: 'Booking terms', notifications: 'My notifications',
    invoiceSettings: 'Invoice settings', paymentSettings: 'Payments', taxes: 'Taxes', seasons: 'Seasons', attributes: 'Attributes',
  },
  header: {
    navigation: 'Navigation', main: 'Main', logOut: 'Log out', logOutFailed: 'Could not log out', organization: 'Organization',
    switchFailed: 'Could not switch organization', language: 'Language',
  },
  login: {
    intro: 'Log in to manage your units, calendar and bookings.', failed: 'Could not log in', email: 'E-mail',
    password: 'Password', submit: 'Log in',
  },
  start: { loading: 'Loading', failed: 'The dashboard could not start' },
  notFound: { title: 'Page not found', text: 'There is no dashboard page at {{path}}.' },
  setPassword: {
    title: 'Set your password', incomplete: 'This link is incomplete', incompleteText: 'Open the whole link you were given, or ask for a new one.',
    done: 'Password set', doneText: 'You can log in with it now.', toLogin: 'Go to the login page',
    rules: 'At least {{min}} characters, and not a common or easily guessed password. A passphrase of a few uncommon words is easy to remember and hard to guess.',
    failed: 'The password was not set', differ: 'The two passwords differ.', password: 'New password', repeat: 'Repeat it', submit: 'Set password',
  },
}, {
  nl: {
    navigation: {
      today: 'Vandaag', calendar: 'Kalender', bookings: 'Boekingen', inbox: 'Inbox', units: 'Accommodaties en prijzen', widgets: 'Widgets', reports: 'Rapporten', tasks: 'Taken', myTasks: 'Mijn taken',
      apiKeys: 'API-sleutels', webhooks: 'Webhooks', ical: 'iCal-feeds', templates: 'E-mailsjablonen', unitMessages: 'Berichten per accommodatie',
      members: 'Leden', organization: 'Organisatie', terms: 'Boekingsvoorwaarden', notifications: 'Mijn meldingen',
      invoiceSettings: 'Factuurinstellingen', paymentSettings: 'Betalingen', taxes: 'Belastingen', seasons: 'Seizoenen', attributes: 'Kenmerken',
    },
    header: {
      navigation: 'Navigatie', main: 'Hoofdmenu', logOut: 'Uitloggen', logOutFailed: 'Uitloggen is mislukt', organization: 'Organisatie',
      switchFailed: 'Wisselen van organisatie is mislukt', language: 'Taal',
    },
    login: {
      intro: 'Log in om je accommodaties, kalender en boekingen te beheren.', failed: 'Inloggen is mislukt', email: 'E-mail',
      password: 'Wachtwoord', submit: 'Inloggen',
    },
    start: { loading: 'Laden', failed: 'Het dashboard kon niet starten' },
    notFound: { title: 'Pagina niet gevonden', text: 'Er is geen dashboardpagina op {{path}}.' },
    setPassword: {
      title: 'Kies je wachtwoord', incomplete: 'Deze link is onvolledig', incompleteText: 'Open de hele link die je kreeg, of vraag om een nieuwe.',
      done: 'Wachtwoord ingesteld', doneText: 'Je kunt er nu mee inloggen.', toLogin: 'Naar de inlogpagina',
      rules: 'Minstens {{min}} tekens, en geen veelgebruikt of makkelijk te raden wachtwoord. Een wachtwoordzin van een paar ongewone woorden is makkelijk te onthouden en moeilijk te raden.',
      failed: 'Het wachtwoord is niet ingesteld', differ: 'De twee wachtwoorden verschillen.', password: 'Nieuw wachtwoord', repeat: 'Herhaal het', submit: 'Wachtwoord instellen',
    },
  },
  de: {
    navigation: {
      today: 'Heute', calendar: 'Kalender', bookings: 'Buchungen', inbox: 'Posteingang', units: 'Unterkünfte und Preise', widgets: 'Widgets', reports: 'Berichte', tasks: 'Aufgaben', myTasks: 'Meine Aufgaben',
      apiKeys: 'API-Schlüssel', webhooks: 'Webhooks', ical: 'iCal-Feeds', templates: 'E-Mail-Vorlagen', unitMessages: 'Nachrichten je Unterkunft',
      members: 'Mitglieder', organization: 'Organisation', terms: 'Buchungsbedingungen', notifications: 'Meine Benachrichtigungen',
      invoiceSettings: 'Rechnungseinstellungen', paymentSettings: 'Zahlungen', taxes: 'Steuern', seasons: 'Saisons', attributes: 'Merkmale',
    },
    header: {
      navigation: 'Navigation', main: 'Hauptmenü', logOut: 'Abmelden', logOutFailed: 'Abmelden fehlgeschlagen', organization: 'Organisation',
      switchFailed: 'Organisationswechsel fehlgeschlagen', language: 'Sprache',
    },
    login: {
      intro: 'Melden Sie sich an, um Ihre Unterkünfte, Ihren Kalender und Ihre Buchungen zu verwalten.', failed: 'Anmeldung fehlgeschlagen',
      email: 'E-Mail', password: 'Passwort', submit: 'Anmelden',
    },
    start: { loading: 'Wird geladen', failed: 'Das Dashboard konnte nicht starten' },
    notFound: { title: 'Seite nicht gefunden', text: 'Unter {{path}} gibt es keine Dashboard-Seite.' },
    setPassword: {
      title: 'Passwort festlegen', incomplete: 'Dieser Link ist unvollständig', incompleteText: 'Öffnen Sie den ganzen Link, den Sie erhalten haben, oder fordern Sie einen neuen an.',
      done: 'Passwort festgelegt', doneText: 'Sie können sich jetzt damit anmelden.', toLogin: 'Zur Anmeldeseite',
      rules: 'Mindestens {{min}} Zeichen und kein häufiges oder leicht zu erratendes Passwort. Ein Satz aus einigen ungewöhnlichen Wörtern ist leicht zu merken und schwer zu erraten.',
      failed: 'Das Passwort wurde nicht festgelegt', differ: 'Die beiden Passwörter sind verschieden.', password: 'Neues Passwort', repeat: 'Passwort wiederholen', submit: 'Passwort festlegen',
    },
  },
});
