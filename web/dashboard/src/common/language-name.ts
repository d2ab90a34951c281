/** Languages named in the language the dashboard is read in, by the browser (Intl), not by lists of our own. */
import { useTranslation } from 'react-i18next';

/** A language's name (`nl` → "Dutch", or "Nederlands" to a Dutch reader; `nl-NL` → "Dutch (Netherlands)"); a key
 * that is no language tag is shown as it is. */
export function useLanguageName(): (language: string) => string {
  const { i18n } = useTranslation();
  const names = new Intl.DisplayNames(i18n.resolvedLanguage, { type: 'language' });
  return (language) => {
    try {
      return names.of(language) ?? language;
    } catch {
      return language;
    }
  };
}
