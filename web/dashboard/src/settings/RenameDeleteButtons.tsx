/** A named row's **Rename** and **Delete** buttons (seasons, attributes), each naming the row in its accessible name. */
import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface RenameDeleteButtonsProps {
  /** The row's name as shown. */
  name: string;
  /** An action of the page is running: neither button is pressed meanwhile. */
  busy: boolean;
  /** The rename form is open: Rename is pressed already. */
  renaming: boolean;
  onRename: () => void;
  onDelete: () => void;
}

export function RenameDeleteButtons({ name, busy, renaming, onRename, onDelete }: RenameDeleteButtonsProps) {
  const { t } = useTranslation(['businessSettings', 'common']);
  return (
    <Group gap="xs">
      <Button size="xs" variant="default" disabled={busy || renaming} aria-label={t('common:rename.named', { name })} onClick={onRename}>
        {t('common:rename.action')}
      </Button>
      <Button size="xs" variant="subtle" color="red" disabled={busy} aria-label={t('deleteNamed', { name })} onClick={onDelete}>
        {t('common:delete')}
      </Button>
    </Group>
  );
}
