/**
 * The date pickers (Mantine, on dayjs) name months and weekdays in the reader's language: its dayjs locale is loaded
 * on demand (one small file of the build per language), English when dayjs has none for it. A new language loads
 * its file and then re-renders the pickers; until then they keep the previous one.
 */
import { useEffect, useState } from 'react';

const LOCALES = import.meta.glob('../../../../node_modules/dayjs/locale/*.js');

export async function loadPickerLocale(locale: string): Promise<string> {
  const [language = 'en'] = locale.toLowerCase().split('-');
  for (const name of [locale.toLowerCase(), language]) {
    const load = LOCALES[`../../../../node_modules/dayjs/locale/${name}.js`];
    if (load) {
      await load();
      return name;
    }
  }
  return 'en';
}

/** The dayjs locale of `locale` for DatesProvider, once it is loaded. */
export function usePickerLocale(locale: string): string {
  const [loaded, setLoaded] = useState('en');
  useEffect(() => {
    let current = true;
    // A file that cannot be loaded (the network gone) leaves the pickers in the language they have.
    loadPickerLocale(locale).then((name) => current && setLoaded(name), () => undefined);
    return () => {
      current = false;
    };
  }, [locale]);
  return loaded;
}
