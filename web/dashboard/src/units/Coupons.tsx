/** Coupons: codes guests enter for a discount; add one, or delete one (kept for the bookings that used it). */
import { useState, type FormEvent } from 'react';
import { Badge, Button, Group, Loader, NumberInput, Paper, Select, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
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
const DISCOUNTS: { value: Coupon['definition']['type']; label: string }[] = [{ value: 'percentage', label: 'Percentage' }, { value: 'fixed', label: 'Amount' }];

export function Coupons() {
  const { can, format, currency } = useWorkspace();
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
      <ErrorAlert error={coupons.error ?? error} title="Coupons" />
      {coupons.loading && !coupons.data && <Loader size="sm" role="status" aria-label="Loading coupons" />}
      {coupons.data?.length === 0 && <Text c="dimmed">No coupons.</Text>}
      {coupons.data && coupons.data.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="Coupons">
            <Table.Thead><Table.Tr><Table.Th>Code</Table.Th><Table.Th>Discount</Table.Th><Table.Th>Applies to</Table.Th><Table.Th>Uses</Table.Th><Table.Th>Combines</Table.Th><Table.Th>Description</Table.Th><Table.Th /></Table.Tr></Table.Thead>
            <Table.Tbody>
              {coupons.data.map((coupon) => (
                <Table.Tr key={coupon.id}>
                  <Table.Td ff="monospace">{coupon.code}</Table.Td>
                  <Table.Td>{discount(coupon)}</Table.Td>
                  <Table.Td>{coupon.scope}</Table.Td>
                  <Table.Td>{coupon.coupon_uses?.length ?? '—'}{coupon.quota !== null ? ` of ${coupon.quota}` : ''}</Table.Td>
                  <Table.Td>{coupon.stackable ? <Badge variant="outline" color="dark">stackable</Badge> : 'alone'}</Table.Td>
                  <Table.Td>{coupon.description}</Table.Td>
                  <Table.Td>{can('coupons', 'write') && <ConfirmButton size="xs" question={`Delete coupon ${coupon.code}?`} onConfirm={() => remove(coupon.id)} aria-label={`Delete coupon ${coupon.code}`}>Delete</ConfirmButton>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function NewCoupon({ onAdded }: { onAdded: () => void }) {
  const { currency } = useWorkspace();
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
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label="Add a coupon">
      <ErrorAlert error={error} title="The coupon was not added" />
      <Group align="flex-end" wrap="wrap">
        <TextInput label="Code" required value={code} onChange={(e) => setCode(e.currentTarget.value)} w={140} />
        <Select label="Discount" data={DISCOUNTS.map((discount) => discount.value === 'fixed' ? { ...discount, label: `Amount (${currency})` } : discount)} value={type} onChange={(value) => value && setType(value)} allowDeselect={false} w={160} />
        <NumberInput label={type === 'fixed' ? `Amount in ${currency}` : 'Percent'} value={value} onChange={setValue} min={0} decimalScale={2} w={140} required />
        <Select label="Applies to" data={SCOPES} value={scope} onChange={(value) => value && setScope(value)} allowDeselect={false} w={130} />
        <NumberInput label="Uses (empty: unlimited)" value={quota} onChange={setQuota} min={0} w={170} />
        <Switch label="Combines with others" checked={stackable} onChange={(e) => setStackable(e.currentTarget.checked)} />
        <Button type="submit">Add coupon</Button>
      </Group>
    </Paper>
  );
}
