/**
 * The editor of one unit message (or a new one): its name, the e-mail template it is based on, its own subject and
 * body per language (empty: the e-mail template's), its own moment (else the e-mail template's trigger or moment),
 * the units whose bookings get it, and whether it is active. message-template-form.ts says how it acts and is saved.
 */
import { useState } from 'react';
import { Button, Checkbox, Group, Paper, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../../api/database';
import { ConfirmButton } from '../../common/ConfirmButton';
import { ErrorAlert } from '../../common/ErrorAlert';
import { useWorkspace } from '../../shell/context';
import { messageFormOf, newMessageForm, saveMessage, type MessageForm, type StoredMessage } from './message-template-form';
import { templateErrors } from './template-errors';
import { MomentFields } from './MomentFields';
import { TemplateTexts, type TextField } from './TemplateTexts';
import type { TemplateLanguage } from './template-form';

export interface MessageEditorProps {
  stored: StoredMessage | null;
  /** The e-mail templates it may be based on, labelled. */
  emailTemplates: { value: string; label: string }[];
  units: { id: string; name: string }[];
  /** After a save or a delete: the message to show next (null: the first). */
  onChanged: (id: string | null) => void;
}

export function MessageEditor({ stored, emailTemplates, units, onChanged }: MessageEditorProps) {
  const { can } = useWorkspace();
  const { t } = useTranslation(['templates', 'common']);
  const mayWrite = can('message_templates', 'write') && can('product_message_templates', 'write');
  const [form, setForm] = useState<MessageForm>(() => (stored ? messageFormOf(stored) : newMessageForm()));
  const [error, setError] = useState<unknown>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errors = templateErrors(error);

  const edit = (change: Partial<MessageForm>) => {
    setForm((previous) => ({ ...previous, ...change }));
    setError(null);
  };
  const setText = (field: TextField, key: TemplateLanguage, text: string) => {
    setForm((previous) => ({ ...previous, [field]: { ...previous[field], [key]: text } }));
    setError(null);
  };
  const act = async (action: () => Promise<string | null>) => {
    setBusy(true);
    setError(null);
    try {
      onChanged(await action());
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const save = () => {
    if (form.name.trim() === '') return setNameError(t('message.needName'));
    setNameError(null);
    return act(() => saveMessage(form, stored));
  };
  const remove = (original: StoredMessage) => act(async () => {
    rowsOf(await database.from('message_templates').delete().eq('id', original.id));
    return null;
  });

  return (
    <Paper withBorder p="md" component="form" aria-label={stored ? t('message.edit') : t('message.new')} onSubmit={(event) => { event.preventDefault(); void save(); }}>
      <Stack>
        <ErrorAlert error={errors.general} title={t('message.saveFailed')} />
        <Group align="flex-start" wrap="wrap">
          <TextInput label={t('message.name')} description={t('message.nameHelp')} value={form.name} readOnly={!mayWrite} error={nameError} w={320}
            onChange={(event) => edit({ name: event.currentTarget.value })} />
          <Select label={t('message.basedOn')} description={t('message.basedOnHelp')}
            data={emailTemplates} value={form.emailTemplateId} clearable placeholder={t('message.basedOnNone')} readOnly={!mayWrite} w={420} maw="100%"
            onChange={(value) => edit({ emailTemplateId: value })} />
        </Group>
        {form.emailTemplateId && (
          <Text size="xs" c="dimmed">{t('message.onlyThrough')}</Text>
        )}
        <TemplateTexts subject={form.subject} body={form.body} onChange={setText} readOnly={!mayWrite} problem={errors.text}
          defaultNote={form.emailTemplateId ? t('message.defaultNote') : undefined} />
        <Group align="flex-end" wrap="wrap">
          <Switch label={t('message.ownMoment')} checked={form.moment !== null} disabled={!mayWrite}
            onChange={(event) => edit({ moment: event.currentTarget.checked ? { type: 'check-in', offset: -1 } : null })} />
          {form.moment && <MomentFields moment={form.moment} onChange={(moment) => edit({ moment })} readOnly={!mayWrite} error={errors.fields.moment} />}
        </Group>
        {!form.moment && !form.emailTemplateId && <Text size="xs" c="red.9">{t('message.neverSent')}</Text>}

        <Checkbox.Group label={t('message.units')} description={t('message.unitsHelp')} value={form.unitIds}
          onChange={(unitIds) => mayWrite && edit({ unitIds })}>
          <Stack gap={6} mt={6}>
            {units.length === 0 && <Text size="sm" c="dimmed">{t('message.noUnits')}</Text>}
            {units.map((unit) => (
              <Checkbox key={unit.id} value={unit.id} label={unit.name} disabled={!mayWrite} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Switch label={t('message.active')} checked={form.active} disabled={!mayWrite} onChange={(event) => edit({ active: event.currentTarget.checked })} />

        {mayWrite && (
          <Group>
            <Button type="submit" loading={busy}>{stored ? t('common:save') : t('message.create')}</Button>
            {stored && <ConfirmButton question={t('message.deleteQuestion')} onConfirm={() => void remove(stored)} loading={busy}>{t('common:delete')}</ConfirmButton>}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
