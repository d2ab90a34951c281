/**
 * A unit's extras and fees: the organization's services linked to it (`product_services`), each with its price and
 * payment moments; a new one (e.g. "Cleaning", always charged, € 50 per stay) is created as a service and linked in one
 * go, an existing service of the organization can be linked, and a link removed (the service stays for other units).
 */
import { useState } from 'react';
import { Button, Card, Group, NumberInput, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { currencyDigits } from './intervals';
import { PaymentMoments } from './PaymentMoments';
import { isOfferedKind, PRICED_PER, SERVICE_KINDS, type OfferedServiceKind } from './service-kinds';
import type { ServicePricing } from '../api/json-columns';

const LINKED = 'id,order,services(id,name,type,pricing,required,active)';

export function Extras({ unitId, currency }: { unitId: string; currency: string }) {
  const { can, format, locale } = useWorkspace();
  const { t } = useTranslation(['units', 'common']);
  const mayWrite = can('product_services', 'write') && can('services', 'write');
  const digits = currencyDigits(currency);
  const linked = useLoad(async () => rowsOf(await database.from('product_services').select(LINKED).eq('product_id', unitId).order('order')), [unitId]);
  const all = useLoad(async () => rowsOf(await database.from('services').select('id,name').order('order')), []);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<OfferedServiceKind>('fee');
  const [amount, setAmount] = useState<number | string>('');
  const [per, setPer] = useState<ServicePricing['per']>('stay');
  const [existing, setExisting] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const nextOrder = (linked.data?.length ?? 0);

  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      linked.reload();
      all.reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const create = () => act(async () => {
    const pricing = amount === '' ? null : { per, amount: Math.round(Number(amount) * 10 ** digits) };
    const service = rowsOf(await database.from('services').insert({ name: { default: name.trim() }, type: kind, pricing, required: kind === 'fee' }).select('id').single());
    rowsOf(await database.from('product_services').insert({ product_id: unitId, service_id: service.id, order: nextOrder }));
    setName('');
    setAmount('');
  });
  const link = () => existing && act(async () => {
    rowsOf(await database.from('product_services').insert({ product_id: unitId, service_id: existing, order: nextOrder }));
    setExisting(null);
  });
  const unlink = (id: string) => act(async () => {
    rowsOf(await database.from('product_services').delete().eq('id', id));
  });
  const linkedIds = new Set(linked.data?.map((row) => row.services?.id));

  return (
    <Card withBorder component="section" aria-label={t('extras.title')}>
      <Stack>
        <Title order={3} size="h4">{t('extras.title')}</Title>
        <ErrorAlert error={linked.error ?? error} title={t('extras.title')} />
        {linked.data?.length === 0 && <Text size="sm" c="dimmed">{t('extras.none')}</Text>}
        {linked.data && linked.data.length > 0 && (
          <Table aria-label={t('extras.table')}>
            <Table.Thead><Table.Tr><Table.Th>{t('extras.name')}</Table.Th><Table.Th>{t('extras.kind')}</Table.Th><Table.Th>{t('extras.price')}</Table.Th><Table.Th>{t('extras.payment')}</Table.Th><Table.Th /></Table.Tr></Table.Thead>
            <Table.Tbody>
              {linked.data.map((row) => row.services && (
                <Table.Tr key={row.id}>
                  <Table.Td>{row.services.active ? localized(row.services.name, locale) : t('extras.inactive', { name: localized(row.services.name, locale) })}</Table.Td>
                  <Table.Td>{isOfferedKind(row.services.type) ? t(`extras.kinds.${row.services.type}`) : row.services.type}</Table.Td>
                  <Table.Td>{row.services.pricing
                    ? t('extras.priced', { amount: format.money(row.services.pricing.amount, currency), per: t(`extras.per.${row.services.pricing.per}`) })
                    : t('extras.free')}</Table.Td>
                  <Table.Td><PaymentMoments serviceId={row.services.id} serviceName={localized(row.services.name, locale)} /></Table.Td>
                  <Table.Td>{mayWrite && <Button size="xs" variant="outline" color="red" aria-label={t('extras.removeFrom', { name: localized(row.services.name, locale) })}
                    onClick={() => void unlink(row.id)}>{t('common:remove')}</Button>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {mayWrite && (
          <form onSubmit={(event) => { event.preventDefault(); void create(); }}>
            <Group align="flex-end" wrap="wrap">
              <TextInput label={t('extras.newName')} placeholder={t('extras.newNamePlaceholder')} required value={name} onChange={(event) => setName(event.currentTarget.value)} />
              <Select label={t('extras.kind')} data={SERVICE_KINDS.map((value) => ({ value, label: t(`extras.kinds.${value}`) }))} value={kind}
                onChange={(value) => value && isOfferedKind(value) && setKind(value)} w={290} allowDeselect={false} />
              <NumberInput label={t('extras.priceIn', { currency })} min={0} decimalScale={digits} value={amount} onChange={setAmount} w={130} />
              <Select label={t('extras.counted')} data={PRICED_PER.map((value) => ({ value, label: t(`extras.per.${value}`) }))} value={per} allowDeselect={false}
                onChange={(value) => value && setPer(value as ServicePricing['per'])} w={190} />
              <Button type="submit" loading={busy}>{t('extras.add')}</Button>
            </Group>
          </form>
        )}
        {mayWrite && all.data && all.data.some((service) => !linkedIds.has(service.id)) && (
          <Group align="flex-end">
            <Select label={t('extras.existing')} placeholder={t('extras.choose')} w={290} value={existing} onChange={setExisting}
              data={all.data.filter((service) => !linkedIds.has(service.id)).map((service) => ({ value: service.id, label: localized(service.name, locale) }))} />
            <Button variant="light" onClick={() => void link()} disabled={!existing} loading={busy}>{t('extras.offer')}</Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
