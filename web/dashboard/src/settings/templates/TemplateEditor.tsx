/**
 * The editor of one e-mail template (or of a new one): subject and body per language, when it is sent, for which
 * bookings, whether it is active, what it adds, its files; the variable list beside the texts and the live preview
 * below them. Every field the API refuses shows its message next to the field — as soon as the preview refuses the
 * draft, or when a save is refused. An e-mail template acts for every unit (docs/automations.md#which-templates-act).
 */
import { useState } from 'react';
import { Button, Checkbox, CloseButton, FileButton, Group, NumberInput, Paper, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { database, rowsOf } from '../../api/database';
import { ConfirmButton } from '../../common/ConfirmButton';
import { ErrorAlert } from '../../common/ErrorAlert';
import { useWorkspace } from '../../shell/context';
import {
  BOOKING_STATUSES, copyOf, draftOf, FLAGS, formOf, newTemplateForm, PAST_SCHEDULE_BEHAVIORS, rowOf, SCHEDULED_TRIGGERS, TRIGGERS,
  type StoredTemplate, type TemplateForm, type TemplateLanguage,
} from './template-form';
import { templateErrors } from './template-errors';
import { MomentFields } from './MomentFields';
import { TemplatePreview } from './TemplatePreview';
import { TemplateTexts, type TextField } from './TemplateTexts';

export interface TemplateEditorProps {
  /** The stored template, or null for a new one. */
  stored: StoredTemplate | null;
  /** After a save, a copy or a delete: the template to show next (null: the first). */
  onChanged: (id: string | null) => void;
}

/** A file as `attachments` stores it: its content in base64. */
async function attachmentOf(file: File, t: TFunction<'templates'>): Promise<StoredTemplate['attachments'][number]> {
  const dataUrl = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(t('editor.unreadable', { file: file.name })));
    reader.readAsDataURL(file);
  });
  return { filename: file.name, content_type: file.type || undefined, content: dataUrl.slice(dataUrl.indexOf(',') + 1) };
}

export function TemplateEditor({ stored, onChanged }: TemplateEditorProps) {
  const { can } = useWorkspace();
  const { t } = useTranslation(['templates', 'common']);
  const mayWrite = can('email_templates', 'write');
  const [form, setForm] = useState<TemplateForm>(() => (stored ? formOf(stored) : newTemplateForm()));
  const [saveError, setSaveError] = useState<unknown>(null);
  const [previewError, setPreviewError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const errors = templateErrors(saveError ?? previewError);

  const edit = (change: Partial<TemplateForm>) => {
    setForm((previous) => ({ ...previous, ...change }));
    setSaveError(null);
  };
  const setText = (field: TextField, key: TemplateLanguage, text: string) => {
    setForm((previous) => ({ ...previous, [field]: { ...previous[field], [key]: text } }));
    setSaveError(null);
  };

  const act = async (action: () => Promise<string | null>) => {
    setBusy(true);
    setSaveError(null);
    try {
      onChanged(await action());
    } catch (failure) {
      setSaveError(failure);
    } finally {
      setBusy(false);
    }
  };
  const save = () => act(async () => {
    const row = rowOf(form);
    const saved = stored
      ? await database.from('email_templates').update(row).eq('id', stored.id).select('id').single()
      : await database.from('email_templates').insert(row).select('id').single();
    return rowsOf(saved).id;
  });
  const duplicate = (original: StoredTemplate) => act(async () => rowsOf(await database.from('email_templates').insert(copyOf(original)).select('id').single()).id);
  const remove = (original: StoredTemplate) => act(async () => {
    rowsOf(await database.from('email_templates').delete().eq('id', original.id));
    return null;
  });
  const addFiles = async (files: File[]) => edit({ attachments: [...form.attachments, ...(await Promise.all(files.map((file) => attachmentOf(file, t))))] });

  return (
    <Paper withBorder p="md" component="form" aria-label={stored ? t('editor.edit') : t('editor.new')} onSubmit={(event) => { event.preventDefault(); void save(); }}>
      <Stack>
        <ErrorAlert error={errors.general} title={t('editor.saveFailed')} />
        <TemplateTexts subject={form.subject} body={form.body} onChange={setText} readOnly={!mayWrite} problem={errors.text} />

        <Switch label={t('editor.active')} checked={form.active} disabled={!mayWrite} onChange={(event) => edit({ active: event.currentTarget.checked })} />
        <Group align="flex-start" wrap="wrap">
          <Select label={t('editor.sent')} data={TRIGGERS.map((trigger) => ({ value: trigger, label: t(`trigger.${trigger}`) }))} value={form.trigger} allowDeselect={false} readOnly={!mayWrite} error={errors.fields.trigger} w={280}
            onChange={(value) => value && edit({ trigger: value as TemplateForm['trigger'] })} />
          {form.trigger === 'moment' && (
            <>
              <MomentFields moment={form.moment} onChange={(moment) => edit({ moment })} readOnly={!mayWrite} error={errors.fields.moment} />
            </>
          )}
          {form.trigger === 'payment_due' && (
            <NumberInput label={t('moment.days')} description={t('paymentDue')} value={form.payment_due_offset} allowDecimal={false} min={-365} max={365} w={200}
              readOnly={!mayWrite} error={errors.fields.payment_due_offset}
              onChange={(value) => edit({ payment_due_offset: typeof value === 'number' ? value : 0 })} />
          )}
          {SCHEDULED_TRIGGERS.includes(form.trigger) && (
            <>
              <TextInput label={t('editor.at')} type="time" value={form.time} readOnly={!mayWrite} error={errors.fields.time} w={200}
                onChange={(event) => edit({ time: event.currentTarget.value })} />
              <Select label={t('editor.pastMoment')} data={PAST_SCHEDULE_BEHAVIORS.map((behavior) => ({ value: behavior, label: t(`pastSchedule.${behavior}`) }))} w={200}
                value={form.past_schedule_behavior} allowDeselect={false} readOnly={!mayWrite} error={errors.fields.past_schedule_behavior}
                onChange={(value) => value && edit({ past_schedule_behavior: value as TemplateForm['past_schedule_behavior'] })} />
            </>
          )}
          <Select label={t('editor.for')} data={BOOKING_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) }))} value={form.status} allowDeselect={false} readOnly={!mayWrite} error={errors.fields.status} w={240}
            onChange={(value) => value && edit({ status: value as TemplateForm['status'] })} />
        </Group>
        <Text size="xs" c="dimmed">{t('editor.everyUnit')}</Text>

        <Stack gap={6}>
          {FLAGS.map((key) => (
            <Checkbox key={key} label={t(`flag.${key}`)} checked={form[key]} disabled={!mayWrite} onChange={(event) => edit({ [key]: event.currentTarget.checked })} />
          ))}
        </Stack>

        <Stack gap={4} aria-label={t('editor.attachments')} component="section">
          <Text size="sm" fw={500}>{t('editor.attachments')}</Text>
          {form.attachments.length === 0 && <Text size="sm" c="dimmed">{t('editor.noAttachments')}</Text>}
          {form.attachments.map((file, index) => (
            <Group key={`${file.filename}-${index}`} gap="xs">
              <Text size="sm">{file.filename}</Text>
              {mayWrite && <CloseButton size="sm" aria-label={t('editor.removeFile', { file: file.filename })} onClick={() => edit({ attachments: form.attachments.filter((_, at) => at !== index) })} />}
            </Group>
          ))}
          {errors.fields.attachments && <Text size="xs" c="red.9">{errors.fields.attachments}</Text>}
          {mayWrite && (
            <FileButton multiple onChange={(files) => void addFiles(files)}>
              {(props) => <Button {...props} size="xs" variant="default" w="fit-content">{t('editor.attach')}</Button>}
            </FileButton>
          )}
        </Stack>

        {mayWrite && (
          <Group>
            <Button type="submit" loading={busy}>{stored ? t('common:save') : t('editor.create')}</Button>
            {stored && <Button variant="default" onClick={() => void duplicate(stored)} disabled={busy}>{t('editor.duplicate')}</Button>}
            {stored && <ConfirmButton question={t('editor.deleteQuestion')} onConfirm={() => void remove(stored)} loading={busy}>{t('common:delete')}</ConfirmButton>}
          </Group>
        )}

        <TemplatePreview templateId={stored?.id ?? null} draft={draftOf(form)} onProblem={setPreviewError} mayTestSend={mayWrite} />
      </Stack>
    </Paper>
  );
}
