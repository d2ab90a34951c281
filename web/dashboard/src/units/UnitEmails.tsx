/**
 * The automated e-mails this unit's bookings get, each with a switch to stop or resume it for this unit only
 * (unit-emails.ts says how the engine decides, and how a switch is written). Templates that never send on their own
 * (manual ones) are not listed: they are sent by hand.
 */
import { useState } from 'react';
import { Card, Loader, Stack, Switch, Table, Text, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { EMAILS_SELECT, loadLinks, sendsOnItsOwn, sentForUnit, switchForUnit, type EmailTemplate } from './unit-emails';

/** When the template is sent: its trigger, or its moment ("3 days before check-in"). */
function when({ trigger, moment, payment_due_offset: dueOffset }: EmailTemplate, t: TFunction<'units'>): string {
  if (moment && (trigger === 'moment' || trigger === null)) {
    const name = t(`emails.moments.${moment.type}`);
    if (moment.offset === 0) return t('emails.onTheDay', { moment: name });
    return t(moment.offset < 0 ? 'emails.before' : 'emails.after', { count: Math.abs(moment.offset), moment: name });
  }
  if (trigger === 'payment_due' && dueOffset) return t(dueOffset < 0 ? 'emails.dueBefore' : 'emails.dueAfter', { count: Math.abs(dueOffset) });
  return trigger ? t(`emails.triggers.${trigger}`) : '';
}

export function UnitEmails({ unitId }: { unitId: string }) {
  const { can, locale } = useWorkspace();
  const { t } = useTranslation('units');
  const mayWrite = can('message_templates', 'write') && can('product_message_templates', 'write') && can('products');
  const loaded = useLoad(async () => {
    const [templates, links] = await Promise.all([database.from('email_templates').select(EMAILS_SELECT).order('created_at'), loadLinks()]);
    return { templates: rowsOf(templates).filter(sendsOnItsOwn), links };
  }, []);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const change = async (template: EmailTemplate, on: boolean) => {
    if (!loaded.data) return;
    setError(null);
    setBusy(template.id);
    try {
      await switchForUnit(template, loaded.data.links, unitId, on, t('emails.chosenUnits', { subject: localized(template.subject, locale) }));
      loaded.reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card withBorder component="section" aria-label={t('emails.title')}>
      <Stack>
        <Title order={3} size="h4">{t('emails.title')}</Title>
        <Text size="sm" c="dimmed">{t('emails.intro')}</Text>
        <ErrorAlert error={loaded.error ?? error} title={t('emails.title')} />
        {loaded.loading && !loaded.data && <Loader size="sm" role="status" aria-label={t('emails.loading')} />}
        {loaded.data?.templates.length === 0 && <Text size="sm" c="dimmed">{t('emails.empty')}</Text>}
        {loaded.data && loaded.data.templates.length > 0 && (
          <Table aria-label={t('emails.table')}>
            <Table.Thead><Table.Tr><Table.Th>{t('emails.email')}</Table.Th><Table.Th>{t('emails.sent')}</Table.Th><Table.Th>{t('emails.forBookings')}</Table.Th><Table.Th>{t('emails.forThisUnit')}</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>
              {loaded.data.templates.map((template) => {
                const subject = localized(template.subject, locale);
                const on = sentForUnit(template, loaded.data!.links, unitId);
                return (
                  <Table.Tr key={template.id}>
                    <Table.Td>{subject}</Table.Td>
                    <Table.Td>{when(template, t)}</Table.Td>
                    <Table.Td>{t(`emails.statuses.${template.status}`)}</Table.Td>
                    <Table.Td>
                      <Switch checked={on} disabled={!mayWrite || busy !== null} aria-label={t('emails.sendFor', { subject })}
                        label={t(on ? 'emails.on' : 'emails.off')} onChange={(event) => void change(template, event.currentTarget.checked)} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
