/**
 * How many guests of each group (adults, children, pets — the organization's `capacity_groups`) a unit takes: a
 * minimum and maximum per group (`capacities`; a group without a row has no limit here). A group that sums others
 * (e.g. "guests" = adults + children) shows which groups it counts, ticked on and off there (SumElements.tsx). A new
 * group can be added for the whole organization, and a group renamed (for the whole organization too), in each language
 * its name has.
 */
import { useState } from 'react';
import { Button, Card, Group, NumberInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useLoad } from '../common/use-load';
import { useAction } from '../common/use-action';
import { RenameForm } from '../common/RenameForm';
import { useWorkspace } from '../shell/context';
import { DEPENDENCIES_SELECT, SumElements } from './SumElements';

interface Limit {
  min: number | string;
  max: number | string;
}

export function Capacity({ unitId }: { unitId: string }) {
  const { can, locale } = useWorkspace();
  const { t } = useTranslation(['units', 'common']);
  const mayWrite = can('capacities', 'write');
  const groups = useLoad(async () => rowsOf(await database.from('capacity_groups').select('id,name,type,order').order('order')), []);
  const dependencies = useLoad(async () => can('capacity_group_dependencies')
    ? rowsOf(await database.from('capacity_group_dependencies').select(DEPENDENCIES_SELECT)) : null, [can]);
  const limits = useLoad(async () => rowsOf(await database.from('capacities').select('id,capacity_group_id,min,max').eq('product_id', unitId)), [unitId]);
  const [edits, setEdits] = useState<Record<string, Limit>>({});
  const [newGroup, setNewGroup] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  /** The group whose name is being edited: a group's name is the organization's, shown on every unit. */
  const [renaming, setRenaming] = useState<string | null>(null);
  const renameAction = useAction(groups.reload);
  const mayRename = can('capacity_groups', 'write');

  const stored = (groupId: string): Limit => {
    const row = limits.data?.find((limit) => limit.capacity_group_id === groupId);
    return row ? { min: row.min, max: row.max ?? '' } : { min: '', max: '' };
  };
  const act = async (action: () => Promise<void>) => {
    setError(null);
    setSaved(false);
    try {
      await action();
      setSaved(true);
    } catch (failure) {
      setError(failure);
    }
  };
  const save = () => act(async () => {
    for (const [groupId, limit] of Object.entries(edits)) {
      const row = limits.data?.find((existing) => existing.capacity_group_id === groupId);
      if (limit.min === '' && limit.max === '') {
        if (row) rowsOf(await database.from('capacities').delete().eq('id', row.id));
        continue;
      }
      const values = { min: Number(limit.min) || 0, max: limit.max === '' ? null : Number(limit.max) };
      rowsOf(await (row ? database.from('capacities').update(values).eq('id', row.id)
        : database.from('capacities').insert({ ...values, product_id: unitId, capacity_group_id: groupId })));
    }
    setEdits({});
    limits.reload();
  });
  const addGroup = () => act(async () => {
    rowsOf(await database.from('capacity_groups').insert({ name: { default: newGroup.trim() } }));
    setNewGroup('');
    groups.reload();
  });

  return (
    <Card withBorder component="section" aria-label={t('capacity.title')}>
      <Stack>
        <Title order={3} size="h4">{t('capacity.title')}</Title>
        <ErrorAlert error={groups.error ?? limits.error ?? dependencies.error ?? error ?? renameAction.error} title={t('capacity.title')} />
        {groups.data?.length === 0 && <Text size="sm" c="dimmed">{t('capacity.noGroups')}</Text>}
        {groups.data && groups.data.length > 0 && (
          <Table aria-label={t('capacity.table')}>
            <Table.Thead><Table.Tr><Table.Th>{t('capacity.group')}</Table.Th><Table.Th>{t('capacity.atLeast')}</Table.Th><Table.Th>{t('capacity.atMost')}</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>
              {groups.data.map((group) => {
                const name = localized(group.name, locale);
                const limit = edits[group.id] ?? stored(group.id);
                const change = (part: Partial<Limit>) => setEdits({ ...edits, [group.id]: { ...limit, ...part } });
                return (
                  <Table.Tr key={group.id}>
                    <Table.Td>
                      {name}{group.type === 'sum' && <Text span size="xs" c="dimmed" ml={4}>{t('capacity.sumNote')}</Text>}
                      {mayRename && renaming !== group.id && (
                        <Button size="compact-xs" variant="subtle" ml={4} disabled={renameAction.busy !== null} aria-label={t('common:rename.named', { name })}
                          onClick={() => setRenaming(group.id)}>
                          {t('common:rename.action')}
                        </Button>
                      )}
                      {renaming === group.id && (
                        <RenameForm name={group.name} shown={name} busy={renameAction.busy !== null} onClose={() => setRenaming(null)}
                          onRename={(renamed) => renameAction.run('rename', async () => rowsOf(await database.from('capacity_groups').update({ name: renamed }).eq('id', group.id)))} />
                      )}
                      {group.type === 'sum' && dependencies.data && (
                        <SumElements sum={group} groups={groups.data!} dependencies={dependencies.data} onChanged={dependencies.reload} onError={setError} />
                      )}
                    </Table.Td>
                    <Table.Td><NumberInput size="xs" w={110} min={0} aria-label={t('capacity.groupAtLeast', { group: name })} placeholder={t('capacity.noLimit')} readOnly={!mayWrite} value={limit.min} onChange={(min) => change({ min })} /></Table.Td>
                    <Table.Td><NumberInput size="xs" w={110} min={0} aria-label={t('capacity.groupAtMost', { group: name })} placeholder={t('capacity.noLimit')} readOnly={!mayWrite} value={limit.max} onChange={(max) => change({ max })} /></Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        {mayWrite && (
          <Group>
            <Button onClick={() => void save()} disabled={Object.keys(edits).length === 0}>{t('capacity.save')}</Button>
            {saved && Object.keys(edits).length === 0 && <Text size="sm" role="status">{t('capacity.saved')}</Text>}
          </Group>
        )}
        {mayRename && (
          <form onSubmit={(event) => { event.preventDefault(); void addGroup(); }}>
            <Group align="flex-end">
              <TextInput label={t('capacity.newGroup')} placeholder={t('capacity.newGroupPlaceholder')} required value={newGroup} onChange={(event) => setNewGroup(event.currentTarget.value)} />
              <Button type="submit" variant="light">{t('capacity.addGroup')}</Button>
            </Group>
          </form>
        )}
      </Stack>
    </Card>
  );
}
