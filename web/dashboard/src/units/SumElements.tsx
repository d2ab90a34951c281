/**
 * Which groups a group that sums others counts (`capacity_group_dependencies`: e.g. "Guests" = Adults + Children,
 * and Pets only when ticked). A dependency belongs to the organization's groups, so a change holds for every unit;
 * it is saved when ticked.
 */
import { Checkbox, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf, type Row } from '../api/database';
import { localized } from '../common/format';
import { useWorkspace } from '../shell/context';

type Dependency = Pick<Row<'capacity_group_dependencies'>, 'id' | 'accumulator_id' | 'element_id'>;
type NamedGroup = Pick<Row<'capacity_groups'>, 'id' | 'name' | 'type'>;

export const DEPENDENCIES_SELECT = 'id,accumulator_id,element_id' as const;

export function SumElements({ sum, groups, dependencies, onChanged, onError }: {
  sum: NamedGroup; groups: NamedGroup[]; dependencies: Dependency[]; onChanged: () => void; onError: (error: unknown) => void;
}) {
  const { can, locale } = useWorkspace();
  const { t } = useTranslation('units');
  const sumName = localized(sum.name, locale);
  const toggle = async (element: NamedGroup, counted: Dependency | undefined) => {
    try {
      rowsOf(await (counted ? database.from('capacity_group_dependencies').delete().eq('id', counted.id)
        : database.from('capacity_group_dependencies').insert({ accumulator_id: sum.id, element_id: element.id })));
      onChanged();
    } catch (failure) {
      onError(failure);
    }
  };
  return (
    <Group gap="xs" mt={4} role="group" aria-label={t('capacity.groupsCounted', { group: sumName })}>
      <Text size="xs" c="dimmed">{t('capacity.counts')}</Text>
      {groups.filter((group) => group.type !== 'sum').map((element) => {
        const counted = dependencies.find((row) => row.accumulator_id === sum.id && row.element_id === element.id);
        return (
          <Checkbox key={element.id} size="xs" label={localized(element.name, locale)} checked={counted !== undefined}
            disabled={!can('capacity_group_dependencies', 'write')} onChange={() => void toggle(element, counted)} />
        );
      })}
    </Group>
  );
}
