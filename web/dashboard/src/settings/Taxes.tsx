/**
 * The organization's taxes (`taxes`: name, percentage, included in prices or added on top, what they apply to) and
 * the units each applies to (`product_taxes`). The booking flow reads both: a quote or booking of a linked unit
 * carries the tax (src/booking/pricing.ts).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Checkbox, Group, Loader, MultiSelect, NumberInput, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { database, rowsOf, valuesOf, type Enums, type Selected } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { linkChanges, loadUnitNames, type UnitName } from './business-units';
import { useAction } from '../common/use-action';

const TAX = 'id,name,percentage,inclusive,applies_to,product_taxes(id,product_id)';
type Tax = Selected<'taxes', typeof TAX>;
const APPLIES_TO = valuesOf<'taxes_applies_to'>()('rent', 'services', 'all');

interface TaxForm {
  id: string | null;
  name: string;
  percentage: number | '';
  inclusive: boolean;
  appliesTo: Enums<'taxes_applies_to'>;
}
const NEW_TAX: TaxForm = { id: null, name: '', percentage: '', inclusive: true, appliesTo: 'all' };

export function Taxes() {
  const { t } = useTranslation('businessSettings');
  const { locale } = useWorkspace();
  const loaded = useLoad(async () => ({
    taxes: rowsOf(await database.from('taxes').select(TAX).order('created_at')),
    units: await loadUnitNames(locale),
  }), [locale]);
  return (
    <Stack maw={1000}>
      <Title order={2}>{t('taxes.title')}</Title>
      <Text size="sm">{t('taxes.intro')}</Text>
      <ErrorAlert error={loaded.error} title={t('loadFailed')} />
      {loaded.loading && !loaded.data && <Loader size="sm" role="status" aria-label={t('taxes.title')} />}
      {loaded.data && <TaxList taxes={loaded.data.taxes} units={loaded.data.units} reload={loaded.reload} />}
    </Stack>
  );
}

function TaxList({ taxes, units, reload }: { taxes: Tax[]; units: UnitName[]; reload: () => void }) {
  const { t } = useTranslation(['businessSettings', 'common']);
  const { can } = useWorkspace();
  const mayWrite = can('taxes', 'write');
  const mayLink = can('product_taxes', 'write');
  const [form, setForm] = useState<TaxForm>(NEW_TAX);
  const [tried, setTried] = useState(false);
  const action = useAction(reload);
  const { error } = action;
  const busy = action.busy !== null;

  const change = (work: () => Promise<unknown>) => action.run('change', work);
  const nameProblem = form.name.trim() === '';
  const percentageProblem = form.percentage === '' || form.percentage < 0 || form.percentage > 100;
  const submit = async () => {
    setTried(true);
    if (nameProblem || percentageProblem) return;
    const row = { name: form.name.trim(), percentage: Number(form.percentage), inclusive: form.inclusive, applies_to: form.appliesTo };
    const done = await change(async () => rowsOf(form.id
      ? await database.from('taxes').update(row).eq('id', form.id)
      : await database.from('taxes').insert(row)));
    if (done) {
      setForm(NEW_TAX);
      setTried(false);
    }
  };
  const setUnits = (tax: Tax, wanted: string[]) => change(async () => {
    const current = tax.product_taxes.map((link) => link.product_id);
    const { added, removed } = linkChanges(current, wanted);
    if (added.length > 0) rowsOf(await database.from('product_taxes').insert(added.map((productId) => ({ tax_id: tax.id, product_id: productId }))));
    if (removed.length > 0) rowsOf(await database.from('product_taxes').delete().eq('tax_id', tax.id).in('product_id', removed));
  });
  const unitChoices = units.map((unit) => ({ value: unit.id, label: unit.name }));

  return (
    <Stack>
      <ErrorAlert error={error} title={t('changeFailed')} />
      {taxes.length === 0 ? <Text size="sm" c="dimmed">{t('taxes.none')}</Text> : (
        <Table.ScrollContainer minWidth={760}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('taxes.name')}</Table.Th><Table.Th>{t('taxes.percentage')}</Table.Th><Table.Th>{t('taxes.inclusive')}</Table.Th>
                <Table.Th>{t('taxes.appliesTo')}</Table.Th><Table.Th>{t('taxes.units')}</Table.Th><Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {taxes.map((tax) => (
                <Table.Tr key={tax.id}>
                  <Table.Td>{tax.name}</Table.Td>
                  <Table.Td>{`${tax.percentage} %`}</Table.Td>
                  <Table.Td>{tax.inclusive ? t('taxes.included') : t('taxes.onTop')}</Table.Td>
                  <Table.Td>{t(`taxes.applies.${tax.applies_to}`)}</Table.Td>
                  <Table.Td miw={260}>
                    <MultiSelect aria-label={t('taxes.unitsOf', { name: tax.name })} data={unitChoices} readOnly={!mayLink} disabled={busy}
                      value={tax.product_taxes.map((link) => link.product_id)} onChange={(wanted) => setUnits(tax, wanted)} />
                  </Table.Td>
                  <Table.Td>
                    {mayWrite && (
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" variant="default" aria-label={`${t('common:edit')} ${tax.name}`}
                          onClick={() => setForm({ id: tax.id, name: tax.name, percentage: tax.percentage, inclusive: tax.inclusive, appliesTo: tax.applies_to })}>
                          {t('common:edit')}
                        </Button>
                        <Button size="xs" variant="subtle" color="red" disabled={busy} aria-label={t('deleteNamed', { name: tax.name })}
                          onClick={() => change(async () => rowsOf(await database.from('taxes').delete().eq('id', tax.id)))}>
                          {t('common:delete')}
                        </Button>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {mayWrite && (
        <Paper withBorder p="md" component="section" aria-label={form.id ? form.name : t('taxes.addTitle')}>
          <Stack>
            <Title order={3} size="h4">{form.id ? form.name : t('taxes.addTitle')}</Title>
            <Group align="flex-start" grow>
              <TextInput label={t('taxes.name')} value={form.name} error={tried && nameProblem && t('taxes.nameProblem')}
                onChange={(event) => { const name = event.currentTarget.value; setForm((previous) => ({ ...previous, name })); }} />
              <NumberInput label={t('taxes.percentage')} value={form.percentage} min={0} max={100} decimalScale={4} suffix=" %"
                error={tried && percentageProblem && t('taxes.percentageProblem')}
                onChange={(value) => setForm((previous) => ({ ...previous, percentage: typeof value === 'number' ? value : '' }))} />
              <Select label={t('taxes.appliesTo')} value={form.appliesTo} allowDeselect={false}
                data={APPLIES_TO.map((value) => ({ value, label: t(`taxes.applies.${value}`) }))}
                onChange={(value) => value && setForm((previous) => ({ ...previous, appliesTo: value as TaxForm['appliesTo'] }))} />
            </Group>
            <Checkbox label={t('taxes.inclusive')} checked={form.inclusive}
              onChange={(event) => { const inclusive = event.currentTarget.checked; setForm((previous) => ({ ...previous, inclusive })); }} />
            <Group>
              <Button onClick={submit} loading={busy}>{form.id ? t('common:save') : t('taxes.add')}</Button>
              {form.id && <Button variant="default" onClick={() => setForm(NEW_TAX)}>{t('common:cancel')}</Button>}
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
