/** A unit's configurations (its prices and stay rules by period), each in its editor, and "Add configuration". */
import { useState } from 'react';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { CONFIGURATION_SELECT } from './configuration-form';
import { ConfigurationEditor } from './ConfigurationEditor';

export function Configurations({ unitId, currency }: { unitId: string; currency: string }) {
  const { can } = useWorkspace();
  const { t } = useTranslation('units');
  const [adding, setAdding] = useState(false);
  const configurations = useLoad(async () => rowsOf(await database.from('product_configurations').select(CONFIGURATION_SELECT)
    .eq('product_id', unitId).order('order')), [unitId]);
  const saved = () => {
    setAdding(false);
    configurations.reload();
  };
  const highest = Math.max(-1, ...(configurations.data ?? []).map((configuration) => configuration.order));
  return (
    <Stack component="section" aria-label={t('configurations.title')}>
      <Title order={3} size="h4">{t('configurations.title')}</Title>
      <Text size="sm" c="dimmed">{t('configurations.intro')}</Text>
      <ErrorAlert error={configurations.error} title={t('configurations.loadFailed')} />
      {configurations.data?.length === 0 && !adding && <Text size="sm">{t('configurations.empty')}</Text>}
      {configurations.data?.map((configuration) => (
        <ConfigurationEditor key={configuration.id} unitId={unitId} currency={currency} stored={configuration} onSaved={configurations.reload} />
      ))}
      {adding && <ConfigurationEditor unitId={unitId} currency={currency} order={highest + 1} onSaved={saved} onCancel={() => setAdding(false)} />}
      {can('product_configurations', 'write') && !adding && <Button variant="light" w="fit-content" onClick={() => setAdding(true)}>{t('configurations.add')}</Button>}
    </Stack>
  );
}
