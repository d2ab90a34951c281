/**
 * A widget's settings: name, fallback language, the units it offers (in the units' order), its colours and the
 * websites allowed to use it. Used to create a widget and to change one; `onSubmit` writes it.
 */
import { useState, type FormEvent } from 'react';
import { Button, Checkbox, ColorInput, Group, Select, SimpleGrid, Stack, TagsInput, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useWorkspace } from '../shell/context';
import type { UnitName } from '../api/units';
import { COLOR_SETTINGS, WIDGET_LANGUAGES, colorOf, normalizeOrigin, withColor, type WidgetDraft } from './widget-draft';

export interface WidgetFormProps {
  initial: WidgetDraft;
  units: readonly UnitName[];
  submitLabel: string;
  errorTitle: string;
  onSubmit: (draft: WidgetDraft) => Promise<void>;
}

export function WidgetForm({ initial, units, submitLabel, errorTitle, onSubmit }: WidgetFormProps) {
  const { t } = useTranslation('widgets');
  const { locale } = useWorkspace();
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const change = (part: Partial<WidgetDraft>) => setDraft((previous) => ({ ...previous, ...part }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit(draft);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  // Units keep the order of the unit list, whatever order they were ticked in.
  const chooseUnits = (chosen: string[]) => change({ unitIds: units.map((unit) => unit.id).filter((id) => chosen.includes(id)) });

  return (
    <Stack component="form" onSubmit={submit} gap="sm">
      <ErrorAlert error={error} title={errorTitle} />
      <Group grow align="flex-start">
        <TextInput label={t('form.name')} description={t('form.nameHint')} required value={draft.name}
          onChange={(event) => change({ name: event.currentTarget.value })} />
        <Select label={t('form.language')} description={t('form.languageHint')} required allowDeselect={false} value={draft.language}
          data={WIDGET_LANGUAGES.map((language) => ({ value: language, label: t(`languages.${language}`) }))}
          onChange={(language) => language && change({ language })} />
      </Group>
      <Checkbox.Group label={t('form.units')} description={t('form.unitsHint')} value={draft.unitIds} onChange={chooseUnits}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
          {units.map((unit) => <Checkbox key={unit.id} value={unit.id} label={localized(unit.name, locale)} />)}
        </SimpleGrid>
      </Checkbox.Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {COLOR_SETTINGS.map((setting) => (
          <ColorInput key={setting} withEyeDropper={false} label={t(`form.colors.${setting}`)} placeholder={t('form.colorDefault')} format="hex"
            value={colorOf(draft.settings, setting)} onChange={(color) => change({ settings: withColor(draft.settings, setting, color) })} />
        ))}
      </SimpleGrid>
      <TagsInput label={t('form.origins')} description={t('form.originsHint')} placeholder={t('form.originsPlaceholder')} clearable
        value={draft.allowedOrigins} onChange={(origins) => change({ allowedOrigins: [...new Set(origins.map(normalizeOrigin))] })} />
      <Group justify="flex-end"><Button type="submit" loading={busy}>{submitLabel}</Button></Group>
    </Stack>
  );
}
