/** The frame's words: the navigation, the header, the login page and "page not found". */
import { defineMessages } from '../i18n/messages.js';

/** The product's name, the same in every language. */
export const PRODUCT_NAME = 'Staykit';

export const shellMessages = defineMessages({
  navigation: {
    today: 'Today', calendar: 'Calendar', bookings: 'Bookings', inbox: 'Inbox', units: 'Units and prices', reports: 'Reports', tasks: 'Tasks', myTasks: 'My tasks',
    apiKeys: 'API keys', webhooks: 'Webhooks', ical: 'iCal feeds', templates: 'E-mail templates', unitMessages: 'Unit messages',
    members: 'Members', organization: 'Organization', terms: 'Booking terms', notifications: 'My notifications',
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
}, {
  nl: {
    navigation: {
      today: 'Vandaag', calendar: 'Kalender', bookings: 'Boekingen', inbox: 'Inbox', units: 'Accommodaties en prijzen', reports: 'Rapporten', tasks: 'Taken', myTasks: 'Mijn taken',
      apiKeys: 'API-sleutels', webhooks: 'Webhooks', ical: 'iCal-feeds', templates: 'E-mailsjablonen', unitMessages: 'Berichten per accommodatie',
      members: 'Leden', organization: 'Organisatie', terms: 'Boekingsvoorwaarden', notifications: 'Mijn meldingen',
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
  },
  de: {
    navigation: {
      today: 'Heute', calendar: 'Kalender', bookings: 'Buchungen', inbox: 'Posteingang', units: 'Unterkünfte und Preise', reports: 'Berichte', tasks: 'Aufgaben', myTasks: 'Meine Aufgaben',
      apiKeys: 'API-Schlüssel', webhooks: 'Webhooks', ical: 'iCal-Feeds', templates: 'E-Mail-Vorlagen', unitMessages: 'Nachrichten je Unterkunft',
      members: 'Mitglieder', organization: 'Organisation', terms: 'Buchungsbedingungen', notifications: 'Meine Benachrichtigungen',
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
  },
});
