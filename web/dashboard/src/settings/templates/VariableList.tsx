/**
 * The variables a template may use, from the server's one list (src/automations/variables.ts, imported: the same
 * list the save check and docs/automations.md#variables are held to). A click inserts the variable at the cursor of
 * the subject or body last edited; a list's field (`line_items[].name`) is inserted as a loop over that list.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TEMPLATE_VARIABLE_PATHS } from '../../../../../src/automations/variables.js';

/** The Liquid that shows `path`. */
export function variableSnippet(path: string): string {
  const [list, field] = path.split('[].');
  return field === undefined ? `{{ ${path} }}` : `{% for item in ${list} %}{{ item.${field} }}{% endfor %}`;
}

/** The variables by what they describe (`guest`, `booking`, `stay`, …), in the server's order. */
const GROUPS = [...TEMPLATE_VARIABLE_PATHS.reduce((groups, path) => {
  const group = path.split(/[.[]/)[0]!;
  return groups.set(group, [...(groups.get(group) ?? []), path]);
}, new Map<string, string[]>())];

export function VariableList({ onInsert, disabled }: { onInsert: (snippet: string) => void; disabled: boolean }) {
  const { t } = useTranslation('templates');
  return (
    <Stack gap="xs" component="section" aria-label={t('variables.title')}>
      <Text fw={600} size="sm">{t('variables.title')}</Text>
      <Text size="xs" c="dimmed">{t('variables.help')}</Text>
      {GROUPS.map(([group, paths]) => (
        <Group key={group} gap={4}>
          {paths.map((path) => (
            <Button key={path} size="compact-xs" variant="light" ff="monospace" disabled={disabled}
              onMouseDown={(event) => event.preventDefault()} onClick={() => onInsert(variableSnippet(path))}>{path}</Button>
          ))}
        </Group>
      ))}
    </Stack>
  );
}
