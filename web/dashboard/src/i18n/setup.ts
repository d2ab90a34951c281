/**
 * i18next with the dashboard's words, started before the first render (every text is bundled: the dashboard's words
 * in three languages are smaller than one photo), in the language the person reads (./languages.ts). Changing it
 * re-renders every page and sets the document's `lang`, so screen readers pronounce the page right.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DASHBOARD_LANGUAGES, preferredLanguage, rememberLanguage, type DashboardLanguage } from './languages';
import { NAMESPACES, type Namespace } from './resources';

const resources = Object.fromEntries(DASHBOARD_LANGUAGES.map((language) => [
  language,
  Object.fromEntries(Object.entries(NAMESPACES).map(([name, messages]) => [name, messages[language]])) as Record<Namespace, object>,
]));

export function startTranslations(): void {
  const language = preferredLanguage();
  document.documentElement.lang = language;
  void i18next.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'en',
    supportedLngs: [...DASHBOARD_LANGUAGES],
    ns: Object.keys(NAMESPACES),
    defaultNS: 'common',
    // React escapes what it renders; escaping again would show `&amp;` in names.
    interpolation: { escapeValue: false },
    initAsync: false,
  });
}

export async function changeLanguage(language: DashboardLanguage): Promise<void> {
  rememberLanguage(language);
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}
