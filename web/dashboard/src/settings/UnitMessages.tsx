/**
 * Unit messages: e-mails sent for the bookings of chosen units only (`message_templates` with their units in
 * `product_message_templates`; docs/automations.md#which-templates-act). Choose one, or start a new one, and edit it
 * in templates/MessageEditor.tsx. The e-mail templates they may be based on are edited under E-mail templates.
 */
import { useState } from 'react';
import { Button, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { MESSAGE_COLUMNS } from './templates/message-template-form';
import { MessageEditor } from './templates/MessageEditor';
import { TEMPLATE_COLUMNS, templateLabel } from './templates/template-form';

/** The message shown: a stored one by id, a new one, or (undefined) the first. */
type Chosen = string | 'new' | undefined;

export function UnitMessages() {
  const { locale, can } = useWorkspace();
  const { t } = useTranslation('settings');
  const { t: templatesT } = useTranslation('templates');
  const loaded = useLoad(async () => {
    const [messages, templates, units] = await Promise.all([
      database.from('message_templates').select(MESSAGE_COLUMNS).eq('channel', 'email').order('created_at'),
      can('email_templates') ? database.from('email_templates').select(TEMPLATE_COLUMNS).order('created_at') : Promise.resolve(null),
      can('products') ? database.from('products').select('id,name').is('deleted_at', null).order('created_at') : Promise.resolve(null),
    ]);
    return {
      messages: rowsOf(messages),
      emailTemplates: templates ? rowsOf(templates) : [],
      units: (units ? rowsOf(units) : []).map((unit) => ({ id: unit.id, name: localized(unit.name, locale) })),
    };
  }, [can, locale]);
  const mayCreate = can('message_templates', 'write');
  const [chosen, setChosen] = useState<Chosen>(undefined);
  const messages = loaded.data?.messages;
  // Labelled here, not when loaded: a change of language relabels them without loading again.
  const emailTemplates = loaded.data?.emailTemplates.map((row) => ({ value: row.id, label: templateLabel(row, localized(row.subject, locale), templatesT) })) ?? [];
  const stored = chosen === 'new' ? null : messages?.find((row) => row.id === chosen) ?? messages?.[0] ?? null;

  return (
    <Stack>
      <Title order={2}>{t('unitMessages.title')}</Title>
      <Text size="sm" maw={760}>{t('unitMessages.intro')}</Text>
      <ErrorAlert error={loaded.error} title={t('unitMessages.loadFailed')} />
      {loaded.loading && !loaded.data && <Loader size="sm" role="status" aria-label={t('unitMessages.loading')} />}
      <Group align="flex-end">
        {messages && messages.length > 0 && (
          <Select label={t('unitMessages.message')} value={chosen === 'new' ? null : stored?.id ?? null} onChange={(id) => id && setChosen(id)} w={560} maw="100%"
            allowDeselect={false} placeholder={t('unitMessages.newPlaceholder')}
            data={messages.map((row) => ({ value: row.id, label: row.active ? row.name : t('unitMessages.inactive', { name: row.name }) }))} />
        )}
        {mayCreate && chosen !== 'new' && <Button variant="default" onClick={() => setChosen('new')}>{t('unitMessages.new')}</Button>}
      </Group>
      {messages?.length === 0 && chosen !== 'new' && <Text c="dimmed">{t('unitMessages.none')}</Text>}
      {loaded.data && (chosen === 'new' || stored !== null) && (
        <MessageEditor key={`${stored?.id ?? 'new'}-${chosen === 'new'}`} stored={chosen === 'new' ? null : stored}
          emailTemplates={emailTemplates} units={loaded.data.units}
          onChanged={(id) => { setChosen(id ?? undefined); loaded.reload(); }} />
      )}
    </Stack>
  );
}
