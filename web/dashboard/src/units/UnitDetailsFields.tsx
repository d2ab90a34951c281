/**
 * The fields of a unit's details — name and description per language, the approximate and exact address, time zone,
 * currency, nightly or daily, instant or on request, latest arrival — shared by "Add unit" and the unit's details
 * section. An API refusal shows at the field it names (`errors`).
 */
import { Checkbox, Fieldset, Group, SegmentedControl, Select, Stack, Tabs, Text, TextInput, Textarea } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { valuesOf } from '../api/database';
import { CURRENCIES, TIME_ZONES } from '../common/intl-choices';
import { TEXT_LANGUAGES } from './language-texts';
import { useLanguageName } from '../common/language-name';
import type { DetailField, UnitDetails } from './unit-details';

/** The choices in the order offered. */
const RENT_PERIODS = valuesOf<'products_rent_period'>()('nightly', 'daily');
const INTERACTIONS = valuesOf<'products_interaction'>()('book', 'request');

export interface UnitDetailsFieldsProps {
  value: UnitDetails;
  onChange: (value: UnitDetails) => void;
  errors: Partial<Record<DetailField, string>>;
}

export function UnitDetailsFields({ value, onChange, errors }: UnitDetailsFieldsProps) {
  const { t } = useTranslation('units');
  const languageName = useLanguageName();
  const set = <Key extends keyof UnitDetails>(key: Key, field: UnitDetails[Key]) => onChange({ ...value, [key]: field });
  return (
    <Stack>
      <Fieldset legend={t('fields.nameAndDescription')}>
        <Tabs defaultValue="default" keepMounted>
          <Tabs.List>
            {TEXT_LANGUAGES.map((language) => <Tabs.Tab key={language.key} value={language.key}>{languageName(language.language)}</Tabs.Tab>)}
          </Tabs.List>
          {TEXT_LANGUAGES.map((language) => (
            <Tabs.Panel key={language.key} value={language.key} pt="sm">
              <Stack gap="xs">
                <TextInput label={t('fields.name', { language: languageName(language.language) })} withAsterisk={language.key === 'default'} value={value.name[language.key]}
                  description={language.key === 'default' ? t('fields.nameHint') : undefined}
                  error={language.key === 'default' ? errors.name : undefined}
                  onChange={(event) => set('name', { ...value.name, [language.key]: event.currentTarget.value })} />
                <Textarea label={t('fields.description', { language: languageName(language.language) })} autosize minRows={3} value={value.description[language.key]}
                  error={language.key === 'default' ? errors.description : undefined}
                  onChange={(event) => set('description', { ...value.description, [language.key]: event.currentTarget.value })} />
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      </Fieldset>
      <Fieldset legend={t('fields.address')}>
        <Stack gap="xs">
          <TextInput label={t('fields.approximateAddress')} description={t('fields.approximateHint')}
            value={value.approximate_address} error={errors.approximate_address} onChange={(event) => set('approximate_address', event.currentTarget.value)} />
          <TextInput label={t('fields.exactAddress')} value={value.exact_address} error={errors.exact_address}
            onChange={(event) => set('exact_address', event.currentTarget.value)} />
          <Checkbox label={t('fields.hideExactAddress')} checked={value.hide_exact_address}
            onChange={(event) => set('hide_exact_address', event.currentTarget.checked)} />
        </Stack>
      </Fieldset>
      <Fieldset legend={t('fields.booking')}>
        <Stack gap="sm">
          <Group grow align="flex-start">
            <Select label={t('fields.timeZone')} searchable data={TIME_ZONES} value={value.timezone} error={errors.timezone}
              onChange={(zone) => zone && set('timezone', zone)} />
            <Select label={t('fields.currency')} searchable data={CURRENCIES} value={value.currency} error={errors.currency}
              onChange={(currency) => currency && set('currency', currency)} />
          </Group>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="unit-rent-period">{t('fields.rentedBy')}</Text>
            <SegmentedControl aria-labelledby="unit-rent-period" value={value.rent_period}
              data={RENT_PERIODS.map((period) => ({ value: period, label: t(`fields.rentPeriods.${period}`) }))}
              onChange={(period) => set('rent_period', period as UnitDetails['rent_period'])} />
            {errors.rent_period && <Text size="xs" c="red.9">{errors.rent_period}</Text>}
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="unit-interaction">{t('fields.bookings')}</Text>
            <SegmentedControl aria-labelledby="unit-interaction" value={value.interaction}
              data={INTERACTIONS.map((interaction) => ({ value: interaction, label: t(`fields.interactions.${interaction}`) }))}
              onChange={(interaction) => set('interaction', interaction as UnitDetails['interaction'])} />
            {errors.interaction && <Text size="xs" c="red.9">{errors.interaction}</Text>}
          </Stack>
          <TimeInput label={t('fields.latestArrival')} description={t('fields.latestArrivalHint')} w={200} value={value.latest_arrival_time}
            error={errors.latest_arrival_time} onChange={(event) => set('latest_arrival_time', event.currentTarget.value)} />
        </Stack>
      </Fieldset>
    </Stack>
  );
}
