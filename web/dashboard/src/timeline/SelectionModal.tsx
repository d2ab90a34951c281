/** Free days picked on a unit's row: block them, or book them for a guest (as the member's rights allow). */
import { useState } from 'react';
import { Modal, SegmentedControl, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { addDays } from '../common/dates';
import { useWorkspace } from '../shell/context';
import { BlockForm } from './BlockForm';
import { BookingForm } from './BookingForm';
import type { Unit } from './queries';

type Choice = 'block' | 'booking';

interface Props {
  units: Unit[];
  unitId: string;
  /** `end` exclusive. */
  days: { start: string; end: string };
  choices: Choice[];
  onClose: () => void;
  onSaved: () => void;
}

export function SelectionModal({ units, unitId, days, choices, onClose, onSaved }: Props) {
  const { format } = useWorkspace();
  const { t } = useTranslation(['calendar', 'common']);
  const [choice, setChoice] = useState<Choice>(choices[0]!);
  const unit = units.find((candidate) => candidate.id === unitId)?.name ?? '';
  return (
    <Modal opened onClose={onClose} title={`${unit}: ${format.date(days.start)} – ${format.date(addDays(days.end, -1))}`} size="lg"
      closeButtonProps={{ 'aria-label': t('common:close') }}>
      <Stack>
        {choices.length > 1 && (
          <SegmentedControl aria-label={t('common:add')} value={choice} onChange={(value) => setChoice(value as Choice)}
            data={choices.map((value) => ({ value, label: t(`choices.${value}`) }))} />
        )}
        {choice === 'block'
          ? <BlockForm units={units} initial={{ unitId, ...days }} onClose={onClose} onSaved={onSaved} />
          : <BookingForm unitId={unitId} days={days} onClose={onClose} onBooked={onSaved} />}
      </Stack>
    </Modal>
  );
}
