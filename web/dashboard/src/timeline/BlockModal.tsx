/** "Add block": a blocked period for any unit and days. */
import { Modal } from '@mantine/core';
import { BlockForm, type BlockFormProps } from './BlockForm';

export function BlockModal(props: BlockFormProps) {
  return (
    <Modal opened onClose={props.onClose} title="Add a block" closeButtonProps={{ 'aria-label': 'Close' }}>
      <BlockForm {...props} />
    </Modal>
  );
}
