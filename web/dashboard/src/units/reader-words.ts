/**
 * Words the browser already knows in every language, in the language the dashboard is read in (not the
 * organization's, which only writes dates and money): weekday names from Intl rather than lists of our own (language
 * names: common/language-name.ts), and the names of a date picker's month buttons, which Mantine
 * leaves unnamed (a screen reader would say "button").
 */
import { useTranslation } from 'react-i18next';

/** 1 January 2024 was a Monday. */
const A_MONDAY = Date.UTC(2024, 0, 1);
const DAY = 24 * 60 * 60 * 1000;

/** The weekdays' short names in the order of a configuration's `check_in_days`/`checkout_days` masks: index 0 = Monday. */
export function useWeekdayNames(): string[] {
  const { i18n } = useTranslation();
  const weekday = new Intl.DateTimeFormat(i18n.resolvedLanguage, { weekday: 'short', timeZone: 'UTC' });
  return Array.from({ length: 7 }, (_, index) => weekday.format(A_MONDAY + index * DAY));
}

export function usePickerLabels() {
  const { t } = useTranslation('units');
  return { nextMonth: t('picker.nextMonth'), previousMonth: t('picker.previousMonth'), nextYear: t('picker.nextYear'), previousYear: t('picker.previousYear') };
}
