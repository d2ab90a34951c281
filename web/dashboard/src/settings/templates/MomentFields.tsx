/** A moment of a stay (docs/automations.md#moments): so many days counted from arrival, departure, confirmation, …. */
import { NumberInput, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Moment } from '../../api/json-columns';
import { MOMENTS } from './template-form';

export function MomentFields({ moment, onChange, readOnly, error }: {
  moment: Moment; onChange: (moment: Moment) => void; readOnly: boolean; error?: string | undefined;
}) {
  const { t } = useTranslation('templates');
  return (
    <>
      <NumberInput label={t('moment.days')} value={moment.offset} allowDecimal={false} w={90} readOnly={readOnly} error={error}
        onChange={(value) => onChange({ ...moment, offset: typeof value === 'number' ? value : 0 })} />
      <Select label={t('moment.counted')} data={MOMENTS.map((type) => ({ value: type, label: t(`momentType.${type}`) }))} value={moment.type} allowDeselect={false} readOnly={readOnly} w={240}
        onChange={(value) => value && onChange({ ...moment, type: value as Moment['type'] })} />
    </>
  );
}
