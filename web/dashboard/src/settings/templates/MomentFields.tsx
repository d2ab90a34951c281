/** A moment of a stay (docs/automations.md#moments): so many days counted from arrival, departure, confirmation, …. */
import { NumberInput, Select } from '@mantine/core';
import type { Moment } from '../../api/json-columns';
import { MOMENTS } from './template-form';

export function MomentFields({ moment, onChange, readOnly, error }: {
  moment: Moment; onChange: (moment: Moment) => void; readOnly: boolean; error?: string | undefined;
}) {
  return (
    <>
      <NumberInput label="Days" value={moment.offset} allowDecimal={false} w={90} readOnly={readOnly} error={error}
        onChange={(value) => onChange({ ...moment, offset: typeof value === 'number' ? value : 0 })} />
      <Select label="Counted" data={MOMENTS} value={moment.type} allowDeselect={false} readOnly={readOnly} w={240}
        onChange={(value) => value && onChange({ ...moment, type: value as Moment['type'] })} />
    </>
  );
}
