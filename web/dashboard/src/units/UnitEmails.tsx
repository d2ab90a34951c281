/**
 * The automated e-mails this unit's bookings get, each with a switch to stop or resume it for this unit only
 * (unit-emails.ts says how the engine decides, and how a switch is written). Templates that never send on their own
 * (manual ones) are not listed: they are sent by hand.
 */
import { useState } from 'react';
import { Card, Loader, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { database, rowsOf, type Enums } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { EMAILS_SELECT, loadLinks, sendsOnItsOwn, sentForUnit, switchForUnit, type EmailTemplate } from './unit-emails';

const TRIGGER_LABELS: Record<Enums<'email_templates_trigger'>, string> = {
  created: 'when a booking is made', confirmed: 'when a booking is confirmed', cancelled: 'when a booking is cancelled',
  updated: 'when a booking changes', moment: 'at a moment of the stay', payment_received: 'when a payment is received',
  payment_due: 'before a payment is due', manual: 'by hand',
};

/** When the template is sent: its trigger, or its moment ("3 days before check-in"). */
function when({ trigger, moment, payment_due_offset: dueOffset }: EmailTemplate): string {
  if (moment && (trigger === 'moment' || trigger === null)) {
    const days = Math.abs(moment.offset);
    return moment.offset === 0 ? `on the ${moment.type} day` : `${days} day${days === 1 ? '' : 's'} ${moment.offset < 0 ? 'before' : 'after'} ${moment.type}`;
  }
  if (trigger === 'payment_due' && dueOffset) {
    const days = Math.abs(dueOffset);
    return `${days} day${days === 1 ? '' : 's'} ${dueOffset < 0 ? 'before' : 'after'} a payment is due`;
  }
  return trigger ? TRIGGER_LABELS[trigger] : '';
}

export function UnitEmails({ unitId }: { unitId: string }) {
  const { can, locale } = useWorkspace();
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
      await switchForUnit(template, loaded.data.links, unitId, on, locale);
      loaded.reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card withBorder component="section" aria-label="E-mails">
      <Stack>
        <Title order={3} size="h4">E-mails</Title>
        <Text size="sm" c="dimmed">The automated e-mails guests of this unit get (edit their texts under Settings → E-mail templates). Switch one off to stop it for this unit only.</Text>
        <ErrorAlert error={loaded.error ?? error} title="E-mails" />
        {loaded.loading && !loaded.data && <Loader size="sm" role="status" aria-label="Loading the e-mails" />}
        {loaded.data?.templates.length === 0 && <Text size="sm" c="dimmed">No automated e-mails: none is sent on its own.</Text>}
        {loaded.data && loaded.data.templates.length > 0 && (
          <Table aria-label="Automated e-mails of this unit">
            <Table.Thead><Table.Tr><Table.Th>E-mail</Table.Th><Table.Th>Sent</Table.Th><Table.Th>For bookings</Table.Th><Table.Th>For this unit</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>
              {loaded.data.templates.map((template) => {
                const subject = localized(template.subject, locale);
                const on = sentForUnit(template, loaded.data!.links, unitId);
                return (
                  <Table.Tr key={template.id}>
                    <Table.Td>{subject}</Table.Td>
                    <Table.Td>{when(template)}</Table.Td>
                    <Table.Td>{template.status.toLowerCase()}</Table.Td>
                    <Table.Td>
                      <Switch checked={on} disabled={!mayWrite || busy !== null} aria-label={`Send "${subject}" for this unit`}
                        label={on ? 'on' : 'off'} onChange={(event) => void change(template, event.currentTarget.checked)} />
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
