/**
 * The organization's booking terms (settings.booking_terms): what a guest reads and accepts in the widget before
 * booking, with the unit's cancellation policy, in English, Dutch and German. Empty: no terms, and no checkbox.
 */
import { useState } from 'react';
import { Button, Group, Loader, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { database, rowsOf, type Selected } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { termsTexts, termsValue, TermsWithoutDefault, type TermsTexts } from './booking-terms';

const ORGANIZATION = 'id,settings';
type Organization = Selected<'organizations', typeof ORGANIZATION>;

const FIELDS: { language: keyof TermsTexts; label: string; description?: string }[] = [
  { language: 'en', label: 'English', description: 'Shown in every language without a text of its own.' },
  { language: 'nl', label: 'Dutch' },
  { language: 'de', label: 'German' },
];

export function BookingTerms() {
  const { session } = useWorkspace();
  const organization = useLoad(async () => rowsOf(await database.from('organizations').select(ORGANIZATION)
    .eq('id', session.organization.id).single()), [session.organization.id]);
  return (
    <Stack maw={720}>
      <Title order={2}>Booking terms</Title>
      <Text size="sm">
        Guests read these terms in the booking widget before they book, together with the unit&apos;s cancellation policy
        (set on each unit&apos;s page), and tick a box to accept both. Without terms the widget shows the cancellation policy only.
      </Text>
      <ErrorAlert error={organization.error} title="The booking terms could not be loaded" />
      {organization.loading && !organization.data && <Loader size="sm" role="status" aria-label="Loading the booking terms" />}
      {organization.data && <TermsForm organization={organization.data} />}
    </Stack>
  );
}

function TermsForm({ organization }: { organization: Organization }) {
  const { can } = useWorkspace();
  const mayWrite = can('organizations', 'write');
  // The settings as last read or written: what a save keeps of the other settings.
  const [settings, setSettings] = useState(organization.settings);
  const [texts, setTexts] = useState(termsTexts(organization.settings.booking_terms));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [missingEnglish, setMissingEnglish] = useState<string | null>(null);

  const save = async () => {
    setError(null);
    setSaved(false);
    setMissingEnglish(null);
    let value: Record<string, string> | null;
    try {
      value = termsValue(texts, settings.booking_terms);
    } catch (failure) {
      if (failure instanceof TermsWithoutDefault) return setMissingEnglish(failure.message);
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
    <Paper withBorder p="md" component="section" aria-label="Terms">
      <Stack>
        <ErrorAlert error={error} title="The booking terms were not saved" />
        {FIELDS.map(({ language, label, description }) => (
          <Textarea key={language} label={label} description={description} autosize minRows={4} maxRows={14} lang={language}
            value={texts[language]} readOnly={!mayWrite} error={language === 'en' ? missingEnglish : null} onChange={(event) => {
              const value = event.currentTarget.value;
              setSaved(false);
              setTexts((previous) => ({ ...previous, [language]: value }));
            }} />
        ))}
        {mayWrite && (
          <Group>
            <Button onClick={save} loading={busy}>Save booking terms</Button>
            {saved && <Text size="sm" role="status">Booking terms saved.</Text>}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
