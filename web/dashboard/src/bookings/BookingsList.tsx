/** Bookings: search by guest or reference, filter by status, unit and dates, a page at a time. */
import { useState } from 'react';
import { Anchor, Group, Loader, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { loadUnitNames } from '../api/units';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { Link } from '../common/router';
import { StatusBadge } from '../common/StatusBadge';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { PaymentBadge } from './PaymentBadge';
import { bookingTotal, listBookings, PAGE_SIZE, paymentState, type BookingFilters, type BookingOrder, type Status } from './queries';

const ORDERS: { value: BookingOrder; label: string }[] = [
  { value: 'upcoming', label: 'Current and upcoming stays' },
  { value: 'latest', label: 'All, latest arrival first' },
  { value: 'booked', label: 'All, newest booking first' },
];

const STATUSES: { value: Status; label: string }[] = [
  { value: 'CONFIRMED', label: 'Confirmed' },
  { value: 'TENTATIVE', label: 'Tentative' },
  { value: 'CANCELLED', label: 'Cancelled' },
];

export function BookingsList() {
  const { can, format, locale } = useWorkspace();
  const [status, setStatus] = useState<Status | null>(null);
  const [unit, setUnit] = useState<string | null>(null);
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const [guestInput, setGuest] = useState('');
  const [referenceInput, setReference] = useState('');
  const [guest] = useDebouncedValue(guestInput, 300);
  const [reference] = useDebouncedValue(referenceInput, 300);
  const [page, setPage] = useState(1);
  const [order, setOrder] = useState<BookingOrder>('upcoming');
  const filters: BookingFilters = { status, unit, from: range[0], to: range[1], guest, reference, order, today: format.today() };
  const units = useLoad(loadUnitNames, []);
  const list = useLoad(() => listBookings(filters, page - 1, can), [status, unit, range[0], range[1], guest, reference, order, page, can]);
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));
  const filter = <T,>(set: (value: T) => void) => (value: T) => { set(value); setPage(1); };

  return (
    <Stack>
      <Title order={2}>Bookings</Title>
      <Group align="flex-end" wrap="wrap" gap="sm" role="search" aria-label="Filter bookings">
        {can('contacts') && <TextInput label="Guest" placeholder="Name or e-mail" value={guestInput} onChange={(event) => filter(setGuest)(event.currentTarget.value)} />}
        <TextInput label="Reference" placeholder="e.g. K7M-4QX2" value={referenceInput} onChange={(event) => filter(setReference)(event.currentTarget.value)} />
        <Select label="Status" placeholder="Any" clearable data={STATUSES} value={status} onChange={filter(setStatus)} />
        <Select label="Unit" placeholder="Any" clearable value={unit} onChange={filter(setUnit)}
          data={(units.data ?? []).map((row) => ({ value: row.id, label: localized(row.name, locale) }))} />
        <DatePickerInput type="range" label="Stay dates" placeholder="Any" clearable value={range}
          onChange={(value) => filter(setRange)(value as [string | null, string | null])} miw={220} />
        <Select label="Order" data={ORDERS} value={order} allowDeselect={false} onChange={(value) => filter(setOrder)((value ?? 'upcoming') as BookingOrder)} />
      </Group>
      <ErrorAlert error={list.error} title="The bookings could not be loaded" />
      <Group gap="xs" aria-live="polite">
        {list.loading && <Loader size="xs" role="status" aria-label="Loading bookings" />}
        {list.data && <Text size="sm" c="dimmed">{list.data.total} booking{list.data.total === 1 ? '' : 's'}</Text>}
      </Group>
      {list.data && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover aria-label="Bookings">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Reference</Table.Th>
                {can('contacts') && <Table.Th>Guest</Table.Th>}
                <Table.Th>Unit</Table.Th>
                <Table.Th>Arrival</Table.Th>
                <Table.Th>Departure</Table.Th>
                <Table.Th>Status</Table.Th>
                {can('line_items') && <Table.Th style={{ textAlign: 'right' }}>Total</Table.Th>}
                {can('payments') && <Table.Th>Payment</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.rows.map((row) => {
                const contact = row.bookings.contact_bookings?.[0]?.contacts;
                return (
                  <Table.Tr key={row.id} data-booking-id={row.booking_id}>
                    <Table.Td><Anchor component={Link} to={`/bookings/${row.booking_id}`} ff="monospace">{row.bookings.reference}</Anchor></Table.Td>
                    {can('contacts') && <Table.Td>{contact ? `${contact.first_name} ${contact.last_name}` : '—'}</Table.Td>}
                    <Table.Td>{localized(row.products?.name, locale)}</Table.Td>
                    <Table.Td>{format.date(row.start_date)}</Table.Td>
                    <Table.Td>{format.date(row.end_date)}</Table.Td>
                    <Table.Td><StatusBadge status={row.status} /></Table.Td>
                    {can('line_items') && <Table.Td style={{ textAlign: 'right' }}>{bookingTotal(row) === undefined ? '—' : format.money(bookingTotal(row)!, row.bookings.currency)}</Table.Td>}
                    {can('payments') && <Table.Td><PaymentBadge state={paymentState(row)} /></Table.Td>}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data && list.data.rows.length === 0 && <Text c="dimmed">No booking matches these filters.</Text>}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />}
    </Stack>
  );
}
