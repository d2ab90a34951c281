/**
 * Units and prices: the units (each opens its editor), "Add unit", archived units behind a switch, and the coupons.
 */
import { useState } from 'react';
import { Anchor, Badge, Group, Loader, Stack, Switch, Table, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf, selectList, when, type Permitted, type Selected } from '../api/database';
import type { Can } from '../api/permissions';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { Link } from '../common/router';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { AddUnit } from './AddUnit';
import { Coupons } from './Coupons';

const unitsSelect = (can: Can) =>
  selectList('id,name,rent_period,interaction,timezone,currency,deleted_at', when(can('product_configurations'), 'product_configurations(id)'));
type UnitRow = Permitted<Selected<'products', ReturnType<typeof unitsSelect>>, 'product_configurations'>;

export function Units() {
  const { can } = useWorkspace();
  const { t } = useTranslation('units');
  return (
    <Stack>
      <Title order={2}>{t('title')}</Title>
      <Tabs defaultValue="units" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="units">{t('tabs.units')}</Tabs.Tab>
          {can('coupons') && <Tabs.Tab value="coupons">{t('tabs.coupons')}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="units" pt="md"><UnitList /></Tabs.Panel>
        {can('coupons') && <Tabs.Panel value="coupons" pt="md"><Coupons /></Tabs.Panel>}
      </Tabs>
    </Stack>
  );
}

function UnitList() {
  const { can, locale } = useWorkspace();
  const { t } = useTranslation('units');
  const [archived, setArchived] = useState(false);
  const units = useLoad(async (): Promise<UnitRow[]> => {
    const query = database.from('products').select(unitsSelect(can));
    return rowsOf(await (archived ? query : query.is('deleted_at', null)).order('created_at'));
  }, [can, archived]);
  return (
    <Stack>
      <Group justify="space-between">
        {can('products', 'write') ? <AddUnit /> : <span />}
        <Switch label={t('list.showArchived')} checked={archived} onChange={(event) => setArchived(event.currentTarget.checked)} />
      </Group>
      {units.loading && !units.data && <Loader size="sm" role="status" aria-label={t('list.loading')} />}
      <ErrorAlert error={units.error} title={t('list.loadFailed')} />
      {units.data?.length === 0 && <Text c="dimmed">{t('list.empty')}</Text>}
      {units.data && units.data.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label={t('list.table')} striped>
            <Table.Thead><Table.Tr><Table.Th>{t('list.unit')}</Table.Th><Table.Th>{t('list.rented')}</Table.Th><Table.Th>{t('list.booking')}</Table.Th><Table.Th>{t('list.timeZone')}</Table.Th><Table.Th>{t('list.currency')}</Table.Th><Table.Th>{t('list.configurations')}</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>
              {units.data.map((unit) => (
                <Table.Tr key={unit.id}>
                  <Table.Td><Anchor component={Link} to={`/units/${unit.id}`}>{localized(unit.name, locale)}</Anchor>{unit.deleted_at && <Badge ml="xs" color="gray" variant="light">{t('archived')}</Badge>}</Table.Td>
                  <Table.Td>{t(`rentPeriods.${unit.rent_period}`)}</Table.Td>
                  <Table.Td><Badge variant="outline" color="dark">{t(`interactions.${unit.interaction}`)}</Badge></Table.Td>
                  <Table.Td>{unit.timezone}</Table.Td>
                  <Table.Td>{unit.currency}</Table.Td>
                  <Table.Td>{unit.product_configurations?.length ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
