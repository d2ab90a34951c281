/**
 * The organization's invoice settings (invoice-settings.ts): the number pattern with an example of the next number,
 * whether a confirmed booking gets a draft or an issued invoice by itself, the payment term and how to pay. The
 * database reads the first two when it makes and numbers invoices; the other settings are written back as they were.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, Loader, NumberInput, Paper, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { database, rowsOf, type Selected } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { exampleNumber, invoiceForm, ON_CONFIRMATION, patternAccepted, withInvoiceSettings, type InvoiceForm } from './invoice-settings';

const ORGANIZATION = 'id,settings';
type Organization = Selected<'organizations', typeof ORGANIZATION>;

export function InvoiceSettings() {
  const { t } = useTranslation('businessSettings');
  const { session } = useWorkspace();
  const loaded = useLoad(async () => rowsOf(await database.from('organizations').select(ORGANIZATION)
    .eq('id', session.organization.id).single()), [session.organization.id]);
  return (
    <Stack maw={720}>
      <Title order={2}>{t('invoices.title')}</Title>
      <Text size="sm">{t('invoices.intro')}</Text>
      <ErrorAlert error={loaded.error} title={t('loadFailed')} />
      {loaded.loading && !loaded.data && <Loader size="sm" role="status" aria-label={t('invoices.title')} />}
      {loaded.data && <InvoiceEditor organization={loaded.data} />}
    </Stack>
  );
}

function InvoiceEditor({ organization }: { organization: Organization }) {
  const { t } = useTranslation('businessSettings');
  const { can } = useWorkspace();
  const mayWrite = can('organizations', 'write');
  const [settings, setSettings] = useState(organization.settings);
  const [form, setForm] = useState<InvoiceForm>(invoiceForm(organization.settings));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const accepted = patternAccepted(form.pattern.trim());

  const set = <Field extends keyof InvoiceForm>(field: Field, value: InvoiceForm[Field]) => {
    setSaved(false);
    setForm((previous) => ({ ...previous, [field]: value }));
  };
  const save = async () => {
    if (!accepted) return;
    setError(null);
    setBusy(true);
    const next = withInvoiceSettings(settings, form);
    try {
      rowsOf(await database.from('organizations').update({ settings: next }).eq('id', organization.id));
      setSettings(next);
      setSaved(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="md">
      <Stack>
        <TextInput label={t('invoices.pattern.label')} description={t('invoices.pattern.description')} value={form.pattern} readOnly={!mayWrite}
          error={accepted ? undefined : t('invoices.pattern.problem')} onChange={(event) => set('pattern', event.currentTarget.value)} />
        {accepted && <Text size="sm" c="dimmed">{t('invoices.pattern.example', { example: exampleNumber(form.pattern.trim(), new Date().getFullYear()) })}</Text>}
        <Select label={t('invoices.onConfirmation.label')} value={form.onConfirmation} readOnly={!mayWrite} allowDeselect={false}
          data={ON_CONFIRMATION.map((mode) => ({ value: mode, label: t(`invoices.onConfirmation.${mode}`) }))}
          onChange={(mode) => mode && set('onConfirmation', mode as InvoiceForm['onConfirmation'])} />
        <NumberInput label={t('invoices.termsDays.label')} description={t('invoices.termsDays.description')} value={form.termsDays}
          min={0} max={365} allowDecimal={false} allowNegative={false} clampBehavior="strict" readOnly={!mayWrite} maw={240}
          onChange={(days) => set('termsDays', typeof days === 'number' ? days : 0)} />
        <Textarea label={t('invoices.instructions.label')} description={t('invoices.instructions.description')} value={form.instructions}
          autosize minRows={2} maxLength={2000} readOnly={!mayWrite} onChange={(event) => set('instructions', event.currentTarget.value)} />
        <ErrorAlert error={error} title={t('changeFailed')} />
        {mayWrite && (
          <Group>
            <Button onClick={save} loading={busy} disabled={!accepted}>{t('invoices.save')}</Button>
            {saved && <Text size="sm" role="status">{t('invoices.saved')}</Text>}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
