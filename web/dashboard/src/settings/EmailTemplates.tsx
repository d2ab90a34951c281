/**
 * E-mail templates: choose one, or start a new one, and edit it in templates/TemplateEditor.tsx (texts per
 * language, variables, when it is sent, its flags and files, a live preview and a test-send to oneself).
 */
import { useState } from 'react';
import { Button, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { TEMPLATE_COLUMNS, templateLabel } from './templates/template-form';
import { TemplateEditor } from './templates/TemplateEditor';

/** The template shown: a stored one by id, a new one, or (undefined) the first. */
type Chosen = string | 'new' | undefined;

export function EmailTemplates() {
  const { locale, can } = useWorkspace();
  const { t } = useTranslation('settings');
  const { t: templatesT } = useTranslation('templates');
  const templates = useLoad(async () => rowsOf(await database.from('email_templates').select(TEMPLATE_COLUMNS).order('created_at')), []);
  const mayCreate = can('email_templates', 'write');
  const [chosen, setChosen] = useState<Chosen>(undefined);
  const stored = chosen === 'new' ? null : templates.data?.find((row) => row.id === chosen) ?? templates.data?.[0] ?? null;
  const showEditor = chosen === 'new' || stored !== null;

  return (
    <Stack>
      <Title order={2}>{t('emailTemplates.title')}</Title>
      <ErrorAlert error={templates.error} title={t('emailTemplates.loadFailed')} />
      {templates.loading && !templates.data && <Loader size="sm" role="status" aria-label={t('emailTemplates.loading')} />}
      <Group align="flex-end">
        {templates.data && templates.data.length > 0 && (
          <Select label={t('emailTemplates.template')} value={chosen === 'new' ? null : stored?.id ?? null} onChange={(id) => id && setChosen(id)} w={560} maw="100%" allowDeselect={false}
            placeholder={t('emailTemplates.newPlaceholder')} data={templates.data.map((row) => ({ value: row.id, label: templateLabel(row, localized(row.subject, locale), templatesT) }))} />
        )}
        {mayCreate && chosen !== 'new' && <Button variant="default" onClick={() => setChosen('new')}>{t('emailTemplates.new')}</Button>}
      </Group>
      {templates.data?.length === 0 && chosen !== 'new' && <Text c="dimmed">{t('emailTemplates.none')}</Text>}
      {templates.data && showEditor && (
        <TemplateEditor key={`${stored?.id ?? 'new'}-${chosen === 'new'}`} stored={chosen === 'new' ? null : stored}
          onChanged={(id) => { setChosen(id ?? undefined); templates.reload(); }} />
      )}
    </Stack>
  );
}
