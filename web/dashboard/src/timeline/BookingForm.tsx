/**
 * Books a stay for a guest: the guest's name, e-mail and phone, how many guests, the unit's extras and booking
 * details, a coupon; then the price as the booking flow quotes it (POST /v1/quote), then the booking (POST /v1/book),
 * silent if asked (no e-mail goes to the guest). Every rule of the booking flow applies (minimum stay, capacities,
 * overlaps, coupon conditions); the form shows the API's own reasons when it refuses. From the timeline the unit and
 * days are the picked ones; from the bookings list they are chosen in the form.
 */
import { useState, type FormEvent } from 'react';
import { Button, Checkbox, Fieldset, Group, Loader, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { loadUnitNames } from '../api/units';
import { addDays } from '../common/dates';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { bookStay, DETAIL_TYPES, EXTRA_TYPES, initialOccupancy, loadBookableUnit, quoteStay, stayInterval, type FormService, type Quote, type StayRequest } from './booking-queries';
import { QuoteTable } from './QuoteTable';
import { ServiceFields, type ServiceValues } from './ServiceFields';

interface Props {
  /** The unit and the picked days (`end` exclusive); without them the form asks for both. */
  unitId?: string;
  days?: { start: string; end: string };
  onClose: () => void;
  onBooked: (booking: { reference: string; booking_id: string }) => void;
}

export function BookingForm({ unitId, days, ...rest }: Props) {
  const { t } = useTranslation('bookings');
  const { locale } = useWorkspace();
  const [chosenUnit, setChosenUnit] = useState<string | null>(null);
  const units = useLoad(async () => (unitId ? [] : loadUnitNames()), [unitId]);
  if (unitId) return <StayForm unitId={unitId} days={days ?? null} {...rest} />;
  return (
    <Stack>
      <ErrorAlert error={units.error} title={t('form.unitFailed')} />
      <Select label={t('form.unit')} placeholder={t('form.chooseUnit')} required value={chosenUnit} onChange={setChosenUnit}
        data={(units.data ?? []).map((row) => ({ value: row.id, label: localized(row.name, locale) }))} />
      {/* A new unit is a new form: its guest groups, extras and rules differ. */}
      {chosenUnit && <StayForm key={chosenUnit} unitId={chosenUnit} days={null} {...rest} />}
    </Stack>
  );
}

function requiredExtras(services: FormService[]): ServiceValues {
  return Object.fromEntries(services.filter((service) => service.required && EXTRA_TYPES.includes(service.type))
    .map((service) => [service.id, service.type === 'checkbox' ? true : 1]));
}

/** The form's sections (guest, extras, details) titled like its fields' labels. */
const LEGEND = { legend: { fontWeight: 600, fontSize: 'var(--mantine-font-size-md)' } };

/** The guest's contact fields, as /book's `contact` names them. */
const GUEST_FIELDS = [
  { key: 'first_name', label: 'firstName', type: 'text' }, { key: 'last_name', label: 'lastName', type: 'text' },
  { key: 'email', label: 'email', type: 'email' }, { key: 'phone', label: 'phone', type: 'tel' },
] as const;

type StayFormProps = Omit<Props, 'unitId' | 'days'> & { unitId: string; days: { start: string; end: string } | null };

function StayForm({ unitId, days: pickedDays, onClose, onBooked }: StayFormProps) {
  const { t } = useTranslation(['bookings', 'common']);
  const { format, locale } = useWorkspace();
  const unit = useLoad(() => loadBookableUnit(unitId, locale), [unitId, locale]);
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const [guest, setGuest] = useState({ first_name: '', last_name: '', email: '', phone: '' });
  const [occupancy, setOccupancy] = useState<Record<string, number> | null>(null);
  const [values, setValues] = useState<ServiceValues>({});
  const [coupon, setCoupon] = useState('');
  const [silent, setSilent] = useState(false);
  const [quote, setQuote] = useState<Quote | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());

  if (unit.error) return <ErrorAlert error={unit.error} title={t('form.unitFailed')} />;
  if (!unit.data) return <Group><Loader size="sm" /><Text size="sm">{t('form.loadingUnit')}</Text></Group>;
  const { rentPeriod, groups, services } = unit.data;
  const guests = occupancy ?? initialOccupancy(groups);
  // Chosen in the form: a nightly unit's range is arrival and departure; a daily unit's its first and last day.
  const days = pickedDays ?? (range[0] && range[1] ? { start: range[0], end: rentPeriod === 'daily' ? addDays(range[1], 1) : range[1] } : null);
  // As the widget: a required extra starts taken (ticked, or one of it); what the manager changes overrides that.
  const serviceValues: ServiceValues = { ...requiredExtras(services), ...values };
  const extras = services.filter((service) => !DETAIL_TYPES.includes(service.type));
  const details = services.filter((service) => DETAIL_TYPES.includes(service.type));

  // Anything changed after the price was shown needs a new price, and is a new booking attempt.
  const changed = () => {
    setQuote(null);
    setIdempotencyKey(crypto.randomUUID());
  };
  const stay = (stayDays: { start: string; end: string }): StayRequest => {
    const contact = Object.fromEntries(Object.entries(guest).map(([key, value]) => [key, value.trim()]).filter(([, value]) => value !== ''));
    // As the widget sends them: what was left empty, unticked or at zero is not sent.
    const formValues = Object.fromEntries(Object.entries(serviceValues)
      .map(([id, value]) => [id, typeof value === 'string' ? value.trim() : value] as const).filter(([, value]) => value !== '' && value !== 0 && value !== false));
    return {
      product_id: unitId, interval: stayInterval(rentPeriod, stayDays), occupancy: guests, contact, form_values: formValues,
      coupon_codes: coupon.trim() ? [coupon.trim()] : [],
    };
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!days) return;
    setBusy(true);
    setError(null);
    try {
      if (!quote) setQuote(await quoteStay(stay(days)));
      else {
        onBooked(await bookStay({ ...stay(days), silent }, idempotencyKey));
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
        <ErrorAlert error={error} title={quote ? t('form.notBooked') : t('form.noPrice')} />
        {pickedDays ? (
          <Text size="sm">
            {rentPeriod === 'daily'
              ? t('form.daily', { start: format.date(pickedDays.start), end: format.date(stayInterval(rentPeriod, pickedDays).end) })
              : t('form.nightly', { arrival: format.date(pickedDays.start), departure: format.date(pickedDays.end) })}
          </Text>
        ) : (
          <DatePickerInput type="range" label={rentPeriod === 'daily' ? t('form.days') : t('form.dates')} required value={range}
            allowSingleDateInRange={rentPeriod === 'daily'} onChange={(value) => { setRange(value as [string | null, string | null]); changed(); }} />
        )}
        <Fieldset legend={t('form.guest')} variant="unstyled" styles={LEGEND}>
          <Stack gap="xs">
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              {GUEST_FIELDS.map(({ key, label, type }) => <TextInput key={key} label={t(`form.${label}`)} type={type} autoComplete="off" {...field(key)} />)}
            </SimpleGrid>
            {groups.length > 0 && (
              <SimpleGrid cols={{ base: 2, xs: 3 }}>
                {groups.map((group) => (
                  <NumberInput key={group.id} label={group.name} min={group.min} max={group.max ?? undefined} allowDecimal={false} allowNegative={false}
                    description={group.max === null ? t('form.atLeast', { min: group.min }) : t('form.between', { min: group.min, max: group.max })} value={guests[group.id]}
                    onChange={(value) => { setOccupancy({ ...guests, [group.id]: Number(value) || 0 }); changed(); }} />
                ))}
              </SimpleGrid>
            )}
          </Stack>
        </Fieldset>
        {extras.length > 0 && (
          <Fieldset legend={t('form.extras')} variant="unstyled" styles={LEGEND}>
            <ServiceFields services={extras} values={serviceValues} onChange={(next) => { setValues(next); changed(); }} />
          </Fieldset>
        )}
        {details.length > 0 && (
          <Fieldset legend={t('form.details')} variant="unstyled" styles={LEGEND}>
            <ServiceFields services={details} values={serviceValues} onChange={(next) => { setValues(next); changed(); }} />
          </Fieldset>
        )}
        <TextInput label={t('form.coupon')} autoComplete="off" maxLength={64} value={coupon} onChange={(event) => { setCoupon(event.currentTarget.value); changed(); }} />
        <Checkbox label={t('form.silent')} description={t('form.silentHint')} checked={silent} onChange={(event) => setSilent(event.currentTarget.checked)} />
        {!days && <Text size="sm" c="dimmed">{t('form.chooseDates')}</Text>}
        {quote && <QuoteTable quote={quote} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('common:cancel')}</Button>
          <Button type="submit" loading={busy} disabled={!days}>{quote ? t('form.book') : t('form.checkPrice')}</Button>
        </Group>
      </Stack>
    </form>
  );
}
