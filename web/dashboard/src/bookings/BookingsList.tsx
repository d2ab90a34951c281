/**
 * Bookings: search by guest or reference; filter by status, unit, stay dates, source and payment; in one of several
 * orders, a page at a time over any number of bookings; every matching booking exported as CSV; a new booking made here.
 */
import { useState } from 'react';
import { Group, Loader, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { listColumns } from './list/columns';
import { ExportButton } from './list/ExportButton';
import { ListFilterBar, useListFilters } from './list/ListFilterBar';
import { listBookings, PAGE_SIZE } from './list/list-query';
import { NewBookingButton } from './new/NewBookingButton';

export function BookingsList() {
  const { t } = useTranslation('bookings');
  const { can, format, locale } = useWorkspace();
  const [page, setPage] = useState(1);
  const [exportError, setExportError] = useState<unknown>(null);
  const state = useListFilters(() => setPage(1));
  const { filters, key } = state;
  const list = useLoad(() => listBookings(filters, page - 1, can), [key, page, can]);
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));
  const columns = listColumns(t, can, format, locale).filter((column) => !column.exportOnly);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('list.title')}</Title>
        <Group gap="sm">
          <ExportButton filters={filters} onError={setExportError} />
          <NewBookingButton />
        </Group>
      </Group>
      <ListFilterBar state={state} />
      <ErrorAlert error={list.error} title={t('list.loadFailed')} />
      <ErrorAlert error={exportError} title={t('list.exportFailed')} />
      <Group gap="xs" aria-live="polite">
        {list.loading && <Loader size="xs" role="status" aria-label={t('list.loading')} />}
        {list.data && <Text size="sm" c="dimmed">{t('list.count', { count: list.data.total })}</Text>}
      </Group>
      {list.data && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover aria-label={t('list.title')}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => <Table.Th key={column.key} style={column.numeric ? { textAlign: 'right' } : undefined}>{column.header}</Table.Th>)}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.rows.map((row) => (
                <Table.Tr key={row.id} data-booking-id={row.booking_id}>
                  {columns.map((column) => (
                    <Table.Td key={column.key} style={column.numeric ? { textAlign: 'right' } : undefined}>{column.cell ? column.cell(row) : column.text(row)}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data && list.data.rows.length === 0 && <Text c="dimmed">{t('list.empty')}</Text>}
      {pages > 1 && (
        <Pagination total={pages} value={page} onChange={setPage} getControlProps={(control) => ({
          'aria-label': control === 'previous' ? t('list.previousPage') : control === 'next' ? t('list.nextPage') : undefined,
        })} getItemProps={(item) => ({ 'aria-label': t('list.page', { page: item }) })} />
      )}
    </Stack>
  );
}
