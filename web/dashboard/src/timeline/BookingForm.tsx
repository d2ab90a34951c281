/**
 * Books picked free days of a unit for a guest: name, e-mail and how many guests, then the price as the booking
 * flow quotes it, then the booking itself. Every rule of the booking flow applies (minimum stay, capacities,
 * overlaps); the page shows the API's own reasons when it refuses.
 */
import { useState, type FormEvent } from 'react';
import { Button, Group, Loader, NumberInput, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { bookStay, initialOccupancy, loadBookableUnit, quoteStay, stayInterval, type Quote, type StayRequest } from './booking-queries';

interface Props {
  unitId: string;
  /** The picked days, `end` exclusive. */
  days: { start: string; end: string };
  onClose: () => void;
  onBooked: () => void;
}

export function BookingForm({ unitId, days, onClose, onBooked }: Props) {
  const { format, locale } = useWorkspace();
  const unit = useLoad(() => loadBookableUnit(unitId, locale), [unitId, locale]);
  const [guest, setGuest] = useState({ first_name: '', last_name: '', email: '' });
  const [occupancy, setOccupancy] = useState<Record<string, number> | null>(null);
  const [quote, setQuote] = useState<Quote | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());

  if (unit.error) return <ErrorAlert error={unit.error} title="The unit could not be loaded" />;
  if (!unit.data) return <Group><Loader size="sm" /><Text size="sm">Loading the unit…</Text></Group>;
  const { rentPeriod, groups } = unit.data;
  const guests = occupancy ?? initialOccupancy(groups);

  // Anything changed after the price was shown needs a new price, and is a new booking attempt.
  const changed = () => {
    setQuote(null);
    setIdempotencyKey(crypto.randomUUID());
  };
  const stay = (): StayRequest => {
    const contact = Object.fromEntries(Object.entries(guest).map(([key, value]) => [key, value.trim()]).filter(([, value]) => value !== ''));
    return { product_id: unitId, interval: stayInterval(rentPeriod, days), occupancy: guests, contact };
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (!quote) setQuote(await quoteStay(stay()));
      else {
        await bookStay(stay(), idempotencyKey);
        onBooked();
        return;
      }
    } catch (failure) {
      setError(failure);
    }
    setBusy(false);
  };
  const field = (key: keyof typeof guest) => ({
    value: guest[key],
    onChange: (event: { currentTarget: { value: string } }) => {
      setGuest({ ...guest, [key]: event.currentTarget.value });
      changed();
    },
  });

  return (
    <form onSubmit={submit}>
      <Stack>
        <ErrorAlert error={error} title={quote ? 'The booking was not made' : 'No price for this stay'} />
        <Text size="sm">
          {rentPeriod === 'daily'
            ? `${format.date(days.start)} – ${format.date(stayInterval(rentPeriod, days).end)}`
            : `Arrival ${format.date(days.start)}, departure ${format.date(days.end)}`}
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput label="First name" autoComplete="off" {...field('first_name')} />
          <TextInput label="Last name" autoComplete="off" {...field('last_name')} />
        </SimpleGrid>
        <TextInput label="E-mail" type="email" autoComplete="off" {...field('email')} />
        {groups.length > 0 && (
          <SimpleGrid cols={{ base: 2, xs: 3 }}>
            {groups.map((group) => (
              <NumberInput key={group.id} label={group.name} min={group.min} max={group.max ?? undefined} allowDecimal={false} allowNegative={false}
                description={group.max === null ? `at least ${group.min}` : `${group.min}–${group.max}`} value={guests[group.id]}
                onChange={(value) => { setOccupancy({ ...guests, [group.id]: Number(value) || 0 }); changed(); }} />
            ))}
          </SimpleGrid>
        )}
        {quote && <QuoteTable quote={quote} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button type="submit" loading={busy}>{quote ? 'Book' : 'Check price'}</Button>
        </Group>
      </Stack>
    </form>
  );
}

function QuoteTable({ quote }: { quote: Quote }) {
  const { format } = useWorkspace();
  const lines = quote.line_items.filter((line) => line.fee_type === 'fee');
  return (
    <Table aria-label="Price" role="table">
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
          <Table.Th scope="row">Total</Table.Th>
          <Table.Td ta="right" fw={600} data-total>{format.money(quote.total, quote.currency)}</Table.Td>
        </Table.Tr>
        {quote.deposit > 0 && (
          <Table.Tr>
            <Table.Th scope="row">Deposit</Table.Th>
            <Table.Td ta="right">{format.money(quote.deposit, quote.currency)}</Table.Td>
          </Table.Tr>
        )}
      </Table.Tfoot>
    </Table>
  );
}
