/**
 * The booking's invoices: make a draft of the price lines on no invoice yet, issue it (the database numbers it),
 * credit an issued one (a credit invoice with its lines negated, issued at once), void it once credited, delete a
 * draft, and download any as PDF. Refusals (e.g. voiding before crediting) show the API's reason.
 */
import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/ErrorAlert';
import { useWorkspace } from '../shell/context';
import { createDraftInvoice, creditInvoice, deleteDraftInvoice, downloadInvoicePdf, issueInvoice, voidInvoice } from './invoice-actions';
import type { BookingDetail } from './queries';
import { Section } from './Section';
import { useAction } from '../common/use-action';

type Invoice = NonNullable<BookingDetail['invoices']>[number];

export function InvoicesSection({ detail, onChanged }: { detail: BookingDetail; onChanged: () => void }) {
  const { t } = useTranslation('booking');
  const { format, can } = useWorkspace();
  const action = useAction(onChanged);
  const download = useAction(() => {});
  const invoices = detail.invoices;
  const mayWrite = can('invoices', 'write') && can('line_items', 'write');
  const uninvoiced = detail.lineItems?.filter((line) => line.invoice_id === null).length ?? 0;
  const numberOf = (id: string | null) => invoices?.find((invoice) => invoice.id === id)?.number ?? '';
  const nameOf = (invoice: Invoice) => invoice.number ?? t('invoices.draft');
  const credited = (invoice: Invoice) => (invoices ?? []).some((credit) => credit.credit_for_id === invoice.id && credit.status !== 'draft');
  const guestId = detail.contacts?.[0]?.id ?? null;

  const buttons = (invoice: Invoice) => {
    const name = nameOf(invoice);
    const button = (key: string, label: string, ariaLabel: string, run: () => Promise<unknown>, color?: string) => (
      <Button key={key} size="xs" variant={color ? 'outline' : 'default'} color={color} aria-label={ariaLabel}
        loading={action.busy === `${key}-${invoice.id}`} onClick={() => action.run(`${key}-${invoice.id}`, run)}>{label}</Button>
    );
    const isCredit = invoice.credit_for_id !== null;
    return [
      mayWrite && invoice.status === 'draft' && button('issue', t('invoices.issue'), t('invoices.issueNamed', { name }), () => issueInvoice(invoice.id)),
      mayWrite && invoice.status === 'draft' && button('delete', t('invoices.deleteDraft'), t('invoices.deleteNamed', { name }), () => deleteDraftInvoice(invoice.id), 'red'),
      mayWrite && !isCredit && (invoice.status === 'issued' || invoice.status === 'paid') && !credited(invoice)
        && button('credit', t('invoices.creditAction'), t('invoices.creditNamed', { name }), () => creditInvoice(invoice.id)),
      mayWrite && !isCredit && (invoice.status === 'issued' || invoice.status === 'paid') && credited(invoice)
        && button('void', t('invoices.void'), t('invoices.voidNamed', { name }), () => voidInvoice(invoice.id), 'red'),
      <Button key="pdf" size="xs" variant="light" aria-label={t('invoices.pdfNamed', { name })} loading={download.busy === invoice.id}
        onClick={() => download.run(invoice.id, () => downloadInvoicePdf(invoice.id))}>{t('invoices.pdf')}</Button>,
    ];
  };

  return (
    <Section title={t('invoices.title')} shown={invoices !== null} empty={invoices?.length === 0}
      actions={mayWrite && uninvoiced > 0 && (
        <Button size="sm" title={t('invoices.createExplain')} loading={action.busy === 'create'}
          onClick={() => action.run('create', () => createDraftInvoice(detail.booking.id, guestId))}>{t('invoices.create')}</Button>
      )}
      footer={(
        <Stack gap="xs" mt="xs">
          <ErrorAlert error={action.error} title={t('invoices.failed')} />
          <ErrorAlert error={download.error} title={t('invoices.failed')} />
          {mayWrite && uninvoiced === 0 && (invoices?.length ?? 0) > 0 && <Text size="xs" c="dimmed">{t('invoices.nothingToInvoice')}</Text>}
        </Stack>
      )}>
      <Table aria-label={t('invoices.table')}>
        <Table.Tbody>
          {invoices?.map((invoice) => (
            <Table.Tr key={invoice.id} data-invoice-id={invoice.id}>
              <Table.Td>
                <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>{nameOf(invoice)}</Text>
                {invoice.credit_for_id && <Text size="xs" c="dimmed">{t('invoices.credit', { number: numberOf(invoice.credit_for_id) })}</Text>}
              </Table.Td>
              <Table.Td>{t(`invoiceStatus.${invoice.status}`)}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>{format.money(invoice.total, invoice.currency)}</Table.Td>
              <Table.Td>
                {invoice.issued_at && <Text size="xs">{t('invoices.issuedOn', { when: format.moment(invoice.issued_at) })}</Text>}
                {invoice.due_at && invoice.status === 'issued' && <Text size="xs" c="dimmed">{t('invoices.dueOn', { when: format.moment(invoice.due_at) })}</Text>}
              </Table.Td>
              <Table.Td><Group gap="xs" justify="flex-end" wrap="nowrap">{buttons(invoice)}</Group></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Section>
  );
}
