/** "Add block": a blocked period for any unit and days. */
import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BlockForm, type BlockFormProps } from './BlockForm';

export function BlockModal(props: BlockFormProps) {
  const { t } = useTranslation(['calendar', 'common']);
  return (
    <Modal opened onClose={props.onClose} title={t('block.add')} closeButtonProps={{ 'aria-label': t('common:close') }}>
      <BlockForm {...props} />
    </Modal>
  );
}
