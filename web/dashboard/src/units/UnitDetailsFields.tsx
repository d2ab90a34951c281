/**
 * The fields of a unit's details — name and description per language, the approximate and exact address, time zone,
 * currency, nightly or daily, instant or on request, latest arrival — shared by "Add unit" and the unit's details
 * section. An API refusal shows at the field it names (`errors`).
 */
import { Checkbox, Fieldset, Group, SegmentedControl, Select, Stack, Tabs, Text, TextInput, Textarea } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import { CURRENCIES, TIME_ZONES } from '../common/intl-choices';
import { TEXT_LANGUAGES } from './language-texts';
import type { DetailField, UnitDetails } from './unit-details';

export interface UnitDetailsFieldsProps {
  value: UnitDetails;
  onChange: (value: UnitDetails) => void;
  errors: Partial<Record<DetailField, string>>;
}

export function UnitDetailsFields({ value, onChange, errors }: UnitDetailsFieldsProps) {
  const set = <Key extends keyof UnitDetails>(key: Key, field: UnitDetails[Key]) => onChange({ ...value, [key]: field });
  return (
    <Stack>
      <Fieldset legend="Name and description">
        <Tabs defaultValue="default" keepMounted>
          <Tabs.List>
            {TEXT_LANGUAGES.map((language) => <Tabs.Tab key={language.key} value={language.key}>{language.label}</Tabs.Tab>)}
          </Tabs.List>
          {TEXT_LANGUAGES.map((language) => (
            <Tabs.Panel key={language.key} value={language.key} pt="sm">
              <Stack gap="xs">
                <TextInput label={`Name (${language.label})`} withAsterisk={language.key === 'default'} value={value.name[language.key]}
                  description={language.key === 'default' ? 'Shown in every language without a name of its own.' : undefined}
                  error={language.key === 'default' ? errors.name : undefined}
                  onChange={(event) => set('name', { ...value.name, [language.key]: event.currentTarget.value })} />
                <Textarea label={`Description (${language.label})`} autosize minRows={3} value={value.description[language.key]}
                  error={language.key === 'default' ? errors.description : undefined}
                  onChange={(event) => set('description', { ...value.description, [language.key]: event.currentTarget.value })} />
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      </Fieldset>
      <Fieldset legend="Address">
        <Stack gap="xs">
          <TextInput label="Approximate address" description="Shown to guests before they book, e.g. the street or the village."
            value={value.approximate_address} error={errors.approximate_address} onChange={(event) => set('approximate_address', event.currentTarget.value)} />
          <TextInput label="Exact address" value={value.exact_address} error={errors.exact_address}
            onChange={(event) => set('exact_address', event.currentTarget.value)} />
          <Checkbox label="Show the exact address only once a booking is confirmed" checked={value.hide_exact_address}
            onChange={(event) => set('hide_exact_address', event.currentTarget.checked)} />
        </Stack>
      </Fieldset>
      <Fieldset legend="Booking">
        <Stack gap="sm">
          <Group grow align="flex-start">
            <Select label="Time zone" searchable data={TIME_ZONES} value={value.timezone} error={errors.timezone}
              onChange={(zone) => zone && set('timezone', zone)} />
            <Select label="Currency" searchable data={CURRENCIES} value={value.currency} error={errors.currency}
              onChange={(currency) => currency && set('currency', currency)} />
          </Group>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="unit-rent-period">Rented by</Text>
            <SegmentedControl aria-labelledby="unit-rent-period" value={value.rent_period}
              data={[{ value: 'nightly', label: 'Night' }, { value: 'daily', label: 'Day' }]}
              onChange={(period) => set('rent_period', period as UnitDetails['rent_period'])} />
            {errors.rent_period && <Text size="xs" c="red">{errors.rent_period}</Text>}
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="unit-interaction">Bookings</Text>
            <SegmentedControl aria-labelledby="unit-interaction" value={value.interaction}
              data={[{ value: 'book', label: 'Instant booking' }, { value: 'request', label: 'On request (you confirm)' }]}
              onChange={(interaction) => set('interaction', interaction as UnitDetails['interaction'])} />
            {errors.interaction && <Text size="xs" c="red">{errors.interaction}</Text>}
          </Stack>
          <TimeInput label="Latest arrival time" description="Leave empty for none." w={200} value={value.latest_arrival_time}
            error={errors.latest_arrival_time} onChange={(event) => set('latest_arrival_time', event.currentTarget.value)} />
        </Stack>
      </Fieldset>
    </Stack>
  );
}
