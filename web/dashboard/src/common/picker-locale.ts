/**
 * The date pickers (Mantine, on dayjs) name months and weekdays in the organization's language: its dayjs locale is
 * loaded on demand (one small file of the build per language), English when dayjs has none for it.
 */
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
