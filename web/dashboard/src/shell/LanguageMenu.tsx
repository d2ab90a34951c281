/** The language the dashboard is read in, chosen by each person for this browser (i18n/languages.ts). */
import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_LANGUAGES, LANGUAGE_NAMES, type DashboardLanguage } from '../i18n/languages';
import { changeLanguage } from '../i18n/setup';

export function LanguageMenu() {
  const { t, i18n } = useTranslation('shell');
  return (
    <NativeSelect size="xs" aria-label={t('header.language')} value={i18n.resolvedLanguage}
      onChange={(event) => void changeLanguage(event.currentTarget.value as DashboardLanguage)}
      data={DASHBOARD_LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))} />
  );
}
