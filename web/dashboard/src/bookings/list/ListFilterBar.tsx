/** The list's search and filters, and their state: text is debounced, and any change goes back to the first page. */
import { useState } from 'react';
import { Group, Select, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { valuesOf } from '../../api/database';
import { loadUnitNames } from '../../api/units';
import { localized } from '../../common/format';
import { useLoad } from '../../common/use-load';
import { useWorkspace } from '../../shell/context';
import type { Status } from '../queries';
import { PAYMENT_FILTERS, SORTS, SOURCES, type ListFilters, type PaymentFilter, type Sort, type Source } from './list-query';

const STATUSES = valuesOf<'calendar_events_status'>()('CONFIRMED', 'TENTATIVE', 'CANCELLED');

type Choices = Omit<ListFilters, 'guest' | 'reference' | 'today' | 'from' | 'to'> & { range: [string | null, string | null] };

export interface ListFilterState {
  filters: ListFilters;
  /** Changes with any filter: what the list's loading depends on. */
  key: string;
  choices: Choices;
  choose: (change: Partial<Choices>) => void;
  text: { guest: string; reference: string };
  type: (change: Partial<{ guest: string; reference: string }>) => void;
}

export function useListFilters(onChange: () => void): ListFilterState {
  const { format } = useWorkspace();
  const [choices, setChoices] = useState<Choices>({ status: null, unit: null, range: [null, null], source: null, payment: null, sort: 'upcoming' });
  const [text, setText] = useState({ guest: '', reference: '' });
  const [debounced] = useDebouncedValue(text, 300);
  const { range, ...rest } = choices;
  const filters: ListFilters = { ...rest, from: range[0], to: range[1], ...debounced, today: format.today() };
  return {
    filters, key: JSON.stringify(filters), choices, text,
    choose: (change) => { setChoices({ ...choices, ...change }); onChange(); },
    type: (change) => { setText({ ...text, ...change }); onChange(); },
  };
}

export function ListFilterBar({ state: { choices, choose, text, type } }: { state: ListFilterState }) {
  const { t } = useTranslation('bookings');
  const { can, locale } = useWorkspace();
  const units = useLoad(loadUnitNames, []);
  const mayReadGuests = can('contacts');
  const mayReadPayments = can('payments');
  return (
    <Group align="flex-end" wrap="wrap" gap="sm" role="search" aria-label={t('list.filters')}>
      {mayReadGuests && <TextInput label={t('list.guest')} placeholder={t('list.guestPlaceholder')} value={text.guest} onChange={(event) => type({ guest: event.currentTarget.value })} />}
      <TextInput label={t('list.reference')} placeholder={t('list.referencePlaceholder')} value={text.reference} onChange={(event) => type({ reference: event.currentTarget.value })} />
      <Select label={t('list.status')} placeholder={t('list.any')} clearable value={choices.status} onChange={(value) => choose({ status: value as Status | null })}
        data={STATUSES.map((status) => ({ value: status, label: t(`statuses.${status}`) }))} />
      <Select label={t('list.unit')} placeholder={t('list.any')} clearable value={choices.unit} onChange={(value) => choose({ unit: value })}
        data={(units.data ?? []).map((row) => ({ value: row.id, label: localized(row.name, locale) }))} />
      <DatePickerInput type="range" label={t('list.stayDates')} placeholder={t('list.any')} clearable value={choices.range} miw={220}
        onChange={(value) => choose({ range: value as [string | null, string | null] })} />
      <Select label={t('list.source')} placeholder={t('list.any')} clearable value={choices.source} onChange={(value) => choose({ source: value as Source | null })}
        data={SOURCES.map((source) => ({ value: source, label: t(`sources.${source}`) }))} />
      {mayReadPayments && (
        <Select label={t('list.payment')} placeholder={t('list.any')} clearable value={choices.payment} onChange={(value) => choose({ payment: value as PaymentFilter | null })}
          data={PAYMENT_FILTERS.map((payment) => ({ value: payment, label: t(`payments.${payment}`) }))} />
      )}
      <Select label={t('list.order')} allowDeselect={false} miw={270} value={choices.sort} onChange={(value) => choose({ sort: (value ?? 'upcoming') as Sort })}
        data={SORTS.map((sort) => ({ value: sort, label: t(`orders.${sort}`) }))} />
    </Group>
  );
}
