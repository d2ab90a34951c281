/**
 * Renaming in place a name written in several languages (a MultiLanguageString, `{ default, 'nl-NL', de, … }`): a
 * field for each language the name has, `default` first (and always, as the create forms write it), none of them
 * left empty. The page decides where the form shows and saves the name (`onRename`, true when saved).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, TextInput } from '@mantine/core';
import type { LanguageTexts } from '../../../../src/common/languages.js';
import { useLanguageName } from './language-name';

interface RenameFormProps {
  /** The name as stored. */
  name: LanguageTexts | null | undefined;
  /** The name as the page shows it, which names the form ("Rename Sumer"). */
  shown: string;
  busy: boolean;
  onRename: (name: Record<string, string>) => Promise<boolean>;
  onClose: () => void;
}

/** The stored name's languages, `default` first. */
const editable = (name: LanguageTexts | null | undefined): Record<string, string> => ({ default: '', ...name });

export function RenameForm({ name, shown, busy, onRename, onClose }: RenameFormProps) {
  const { t } = useTranslation('common');
  const languageName = useLanguageName();
  const [texts, setTexts] = useState(() => editable(name));
  const [tried, setTried] = useState(false);
  const empty = (language: string) => texts[language]!.trim() === '';
  const save = async () => {
    setTried(true);
    if (Object.keys(texts).some(empty)) return;
    if (await onRename(Object.fromEntries(Object.entries(texts).map(([language, text]) => [language, text.trim()])))) onClose();
  };
  return (
    <form aria-label={t('rename.named', { name: shown })} onSubmit={(event) => { event.preventDefault(); void save(); }}>
      <Group align="flex-start" gap="xs">
        {Object.keys(texts).map((language) => (
          <TextInput key={language} size="xs" value={texts[language]}
            label={language === 'default' ? t('rename.name') : t('rename.nameIn', { language: languageName(language) })}
            error={tried && empty(language) && t('rename.empty')}
            onChange={(event) => { const text = event.currentTarget.value; setTexts((previous) => ({ ...previous, [language]: text })); }} />
        ))}
        <Group gap="xs" mt={25}>
          <Button type="submit" size="xs" loading={busy}>{t('save')}</Button>
          <Button size="xs" variant="default" onClick={onClose}>{t('cancel')}</Button>
        </Group>
      </Group>
    </form>
  );
}
