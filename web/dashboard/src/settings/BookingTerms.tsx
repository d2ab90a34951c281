/**
 * The organization's booking terms (settings.booking_terms): what a guest reads and accepts in the widget before
 * booking, with the unit's cancellation policy, in English, Dutch and German. Empty: no terms, and no checkbox.
 */
import { useState } from 'react';
import { Button, Group, Loader, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf, type Selected } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { termsTexts, termsValue, TermsWithoutDefault, type TermsTexts } from './booking-terms';

const ORGANIZATION = 'id,settings';
type Organization = Selected<'organizations', typeof ORGANIZATION>;

/** The texts in the order they are edited: English first, the one every language without its own reads. */
const LANGUAGES: readonly (keyof TermsTexts)[] = ['en', 'nl', 'de'];

export function BookingTerms() {
  const { session } = useWorkspace();
  const { t } = useTranslation('settings');
  const organization = useLoad(async () => rowsOf(await database.from('organizations').select(ORGANIZATION)
    .eq('id', session.organization.id).single()), [session.organization.id]);
  return (
    <Stack maw={720}>
      <Title order={2}>{t('bookingTerms.title')}</Title>
      <Text size="sm">{t('bookingTerms.intro')}</Text>
      <ErrorAlert error={organization.error} title={t('bookingTerms.loadFailed')} />
      {organization.loading && !organization.data && <Loader size="sm" role="status" aria-label={t('bookingTerms.loading')} />}
      {organization.data && <TermsForm organization={organization.data} />}
    </Stack>
  );
}

function TermsForm({ organization }: { organization: Organization }) {
  const { can } = useWorkspace();
  const { t } = useTranslation('settings');
  const mayWrite = can('organizations', 'write');
  // The settings as last read or written: what a save keeps of the other settings.
  const [settings, setSettings] = useState(organization.settings);
  const [texts, setTexts] = useState(termsTexts(organization.settings.booking_terms));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [missingEnglish, setMissingEnglish] = useState(false);

  const save = async () => {
    setError(null);
    setSaved(false);
    setMissingEnglish(false);
    let value: Record<string, string> | null;
    try {
      value = termsValue(texts, settings.booking_terms);
    } catch (failure) {
      if (failure instanceof TermsWithoutDefault) return setMissingEnglish(true);
      throw failure;
    }
    const others = Object.fromEntries(Object.entries(settings).filter(([key]) => key !== 'booking_terms'));
    const next = value === null ? others : { ...others, booking_terms: value };
    setBusy(true);
    try {
      // Settings are one JSON document: the others are written back as they were read.
      rowsOf(await database.from('organizations').update({ settings: next }).eq('id', organization.id));
      setSettings(next);
      setTexts(termsTexts(value));
      setSaved(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="md" component="section" aria-label={t('bookingTerms.section')}>
      <Stack>
        <ErrorAlert error={error} title={t('bookingTerms.saveFailed')} />
        {LANGUAGES.map((language) => (
          <Textarea key={language} label={t(`languageName.${language}`)} description={language === 'en' ? t('bookingTerms.englishNote') : undefined} autosize minRows={4} maxRows={14} lang={language}
            value={texts[language]} readOnly={!mayWrite} error={language === 'en' && missingEnglish ? t('bookingTerms.missingEnglish') : null} onChange={(event) => {
              const value = event.currentTarget.value;
              setSaved(false);
              setTexts((previous) => ({ ...previous, [language]: value }));
            }} />
        ))}
        {mayWrite && (
          <Group>
            <Button onClick={save} loading={busy}>{t('bookingTerms.save')}</Button>
            {saved && <Text size="sm" role="status">{t('bookingTerms.saved')}</Text>}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
