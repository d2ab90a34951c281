/** The booking's whole history (history.ts) as one table: when, what, and who — the signed-in member, another, or the API. */
import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Enums } from '../api/database';
import { useWorkspace } from '../shell/context';
import type { Formatter } from '../common/format';
import { bookingHistory, type HistoryEntry } from './history';
import type { BookingDetail } from './queries';
import { Section } from './Section';

function describe(entry: HistoryEntry, t: TFunction<'booking'>, format: Formatter): string {
  const status = (value: Enums<'calendar_events_status'> | null) => (value ? t(`stayStatus.${value}`) : '—');
  switch (entry.kind) {
    case 'bookingChanged': return t('history.bookingChanged', { fields: entry.data.fields.join(', ') });
    case 'stayCreated': return t('history.stayCreated', { status: status(entry.data.status) });
    case 'statusChanged': return t('history.statusChanged', { from: status(entry.data.from), to: status(entry.data.to) });
    case 'stayUpdated': return t('history.stayUpdated', { fields: entry.data.fields.join(', ') });
    case 'stayDeleted': return t('history.stayDeleted');
    case 'paymentPaid': return t('history.paymentPaid', { amount: format.money(entry.data.amount, entry.data.currency), method: t(`method.${entry.data.method}`) });
    case 'paymentScheduled': return t('history.paymentScheduled', { amount: format.money(entry.data.amount, entry.data.currency), due: format.moment(entry.data.due) });
    case 'paymentAdded': return t('history.paymentAdded', { amount: format.money(entry.data.amount, entry.data.currency), status: t(`paymentStatus.${entry.data.status}`) });
    case 'refund': return t('history.refund', { amount: format.money(entry.data.amount, entry.data.currency), status: t(`refundStatus.${entry.data.status}`) });
    case 'invoiceDraft': return t('history.invoiceDraft', { amount: format.money(entry.data.amount, entry.data.currency) });
    case 'invoiceIssued': return t('history.invoiceIssued', { number: entry.data.number, amount: format.money(entry.data.amount, entry.data.currency) });
    case 'invoiceNow': return t('history.invoiceNow', { number: entry.data.number, status: t(`invoiceStatus.${entry.data.status}`) });
    case 'message': return t(entry.data.direction === 'inbound' ? 'history.messageIn' : 'history.messageOut', { address: entry.data.address, subject: entry.data.subject });
    case 'note': return t('history.note', { note: entry.data.note });
  }
}

export function HistorySection({ detail }: { detail: BookingDetail }) {
  const { t } = useTranslation('booking');
  const { format, session } = useWorkspace();
  const entries = bookingHistory(detail);
  const who = (by: string | null | undefined) => (by === undefined ? '' : by === null ? t('history.system') : by === session.user.id ? t('history.you') : t('history.member'));
  return (
    <Section title={t('history.title')} shown={[detail.bookingUpdates, detail.eventUpdates, detail.payments, detail.invoices, detail.messages, detail.notes].some((part) => part !== null)} empty={entries.length === 0}>
      <Table aria-label={t('history.table')} verticalSpacing={4}>
        <Table.Thead><Table.Tr><Table.Th>{t('history.when')}</Table.Th><Table.Th>{t('history.what')}</Table.Th><Table.Th>{t('history.by')}</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={`${entry.kind}-${entry.id}`} data-kind={entry.kind}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{format.moment(entry.at)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{describe(entry, t, format)}</Table.Td>
              <Table.Td>{who(entry.by)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Section>
  );
}
