/** The price of a stay as /v1/quote answers it: its lines (rent, extras, discounts, taxes), the total and any deposit. */
import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useWorkspace } from '../shell/context';
import type { Quote } from './booking-queries';

export function QuoteTable({ quote }: { quote: Quote }) {
  const { t } = useTranslation('bookings');
  const { format } = useWorkspace();
  const lines = quote.line_items.filter((line) => line.fee_type === 'fee');
  return (
    <Table aria-label={t('form.price')} role="table">
      <Table.Tbody>
        {lines.map((line, index) => (
          <Table.Tr key={index}>
            <Table.Td>{line.name}{line.quantity > 1 ? ` × ${line.quantity}` : ''}</Table.Td>
            <Table.Td ta="right">{format.money(line.amount, quote.currency)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
      <Table.Tfoot>
        <Table.Tr>
          <Table.Th scope="row">{t('form.total')}</Table.Th>
          <Table.Td ta="right" fw={600} data-total>{format.money(quote.total, quote.currency)}</Table.Td>
        </Table.Tr>
        {quote.deposit > 0 && (
          <Table.Tr>
            <Table.Th scope="row">{t('form.deposit')}</Table.Th>
            <Table.Td ta="right">{format.money(quote.deposit, quote.currency)}</Table.Td>
          </Table.Tr>
        )}
      </Table.Tfoot>
    </Table>
  );
}
