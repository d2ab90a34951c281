/** Coupons: codes guests enter for a discount; add one, or delete one (kept for the bookings that used it). */
import { useState, type FormEvent } from 'react';
import { Badge, Button, Group, Loader, NumberInput, Paper, Select, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf, selectList, valuesOf, when, type Enums, type Permitted, type Selected } from '../api/database';
import type { Can } from '../api/permissions';
import { ConfirmButton } from '../common/ConfirmButton';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { currencyDigits } from './intervals';

const couponsSelect = (can: Can) =>
  selectList('id,code,description,definition,scope,quota,stackable,deleted_at', when(can('coupon_uses'), 'coupon_uses(id)'));
type Coupon = Permitted<Selected<'coupons', ReturnType<typeof couponsSelect>>, 'coupon_uses'>;
type Scope = Enums<'coupons_scope'>;

const SCOPES = valuesOf<'coupons_scope'>()('global', 'rent', 'product', 'service');
const DISCOUNTS: readonly Coupon['definition']['type'][] = ['percentage', 'fixed'];

export function Coupons() {
  const { can, format, currency } = useWorkspace();
  const { t } = useTranslation(['units', 'common']);
  const coupons = useLoad(async (): Promise<Coupon[]> => rowsOf(await database.from('coupons').select(couponsSelect(can))
    .is('deleted_at', null).order('code')), [can]);
  const [error, setError] = useState<unknown>(null);
  const remove = async (id: string) => {
    setError(null);
    try {
      rowsOf(await database.from('coupons').delete().eq('id', id));
      coupons.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const discount = (coupon: Coupon) => coupon.definition.type === 'percentage' ? `${coupon.definition.value}%` : format.money(coupon.definition.value, currency);
  return (
    <Stack>
      {can('coupons', 'write') && <NewCoupon onAdded={coupons.reload} />}
      <ErrorAlert error={coupons.error ?? error} title={t('coupons.title')} />
      {coupons.loading && !coupons.data && <Loader size="sm" role="status" aria-label={t('coupons.loading')} />}
      {coupons.data?.length === 0 && <Text c="dimmed">{t('coupons.empty')}</Text>}
      {coupons.data && coupons.data.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label={t('coupons.table')}>
            <Table.Thead><Table.Tr><Table.Th>{t('coupons.code')}</Table.Th><Table.Th>{t('coupons.discount')}</Table.Th><Table.Th>{t('coupons.appliesTo')}</Table.Th><Table.Th>{t('coupons.uses')}</Table.Th><Table.Th>{t('coupons.combines')}</Table.Th><Table.Th>{t('coupons.description')}</Table.Th><Table.Th /></Table.Tr></Table.Thead>
            <Table.Tbody>
              {coupons.data.map((coupon) => {
                const uses = coupon.coupon_uses?.length ?? '—';
                return (
                  <Table.Tr key={coupon.id}>
                    <Table.Td ff="monospace">{coupon.code}</Table.Td>
                    <Table.Td>{discount(coupon)}</Table.Td>
                    <Table.Td>{t(`coupons.scopes.${coupon.scope}`)}</Table.Td>
                    <Table.Td>{coupon.quota === null ? uses : t('coupons.usesOf', { uses, quota: coupon.quota })}</Table.Td>
                    <Table.Td>{coupon.stackable ? <Badge variant="outline" color="dark">{t('coupons.stackable')}</Badge> : t('coupons.alone')}</Table.Td>
                    <Table.Td>{coupon.description}</Table.Td>
                    <Table.Td>{can('coupons', 'write') && <ConfirmButton size="xs" question={t('coupons.deleteQuestion', { code: coupon.code })} onConfirm={() => remove(coupon.id)}
                      aria-label={t('coupons.deleteLabel', { code: coupon.code })}>{t('common:delete')}</ConfirmButton>}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function NewCoupon({ onAdded }: { onAdded: () => void }) {
  const { currency } = useWorkspace();
  const { t } = useTranslation('units');
  const [code, setCode] = useState('');
  const [type, setType] = useState<Coupon['definition']['type']>('percentage');
  const [value, setValue] = useState<number | string>(10);
  const [scope, setScope] = useState<Scope>('global');
  const [quota, setQuota] = useState<number | string>('');
  const [stackable, setStackable] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const amount = Number(value);
    try {
      rowsOf(await database.from('coupons').insert({
        code, scope, stackable, quota: quota === '' ? null : Number(quota),
        definition: { type, value: type === 'fixed' ? Math.round(amount * 10 ** currencyDigits(currency)) : amount },
      }));
      setCode('');
      onAdded();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label={t('coupons.form')}>
      <ErrorAlert error={error} title={t('coupons.failed')} />
      <Group align="flex-end" wrap="wrap">
        <TextInput label={t('coupons.code')} required value={code} onChange={(e) => setCode(e.currentTarget.value)} w={140} />
        <Select label={t('coupons.discount')} data={DISCOUNTS.map((discount) => ({ value: discount, label: t(`coupons.discounts.${discount}`, { currency }) }))} value={type} onChange={(value) => value && setType(value)} allowDeselect={false} w={160} />
        <NumberInput label={type === 'fixed' ? t('coupons.amountIn', { currency }) : t('coupons.percent')} value={value} onChange={setValue} min={0} decimalScale={2} w={140} required />
        <Select label={t('coupons.appliesTo')} data={SCOPES.map((value) => ({ value, label: t(`coupons.scopes.${value}`) }))} value={scope} onChange={(value) => value && setScope(value as Scope)} allowDeselect={false} w={130} />
        <NumberInput label={t('coupons.quota')} value={quota} onChange={setQuota} min={0} w={200} />
        <Switch label={t('coupons.stackableLabel')} checked={stackable} onChange={(e) => setStackable(e.currentTarget.checked)} />
        <Button type="submit">{t('coupons.submit')}</Button>
      </Group>
    </Paper>
  );
}
