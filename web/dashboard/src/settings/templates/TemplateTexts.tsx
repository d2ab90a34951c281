/**
 * A template's subject and body per language (the tabs of TEMPLATE_LANGUAGES), with the variable list beside them:
 * a variable is inserted where the cursor was in the subject or body last focused. Shared by the e-mail template
 * editor and the unit message editor.
 */
import { useRef, useState } from 'react';
import { Grid, Stack, Tabs, Text, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LanguageTexts } from '../../../../../src/common/languages.js';
import type { TextProblem } from './template-errors';
import { TEMPLATE_LANGUAGES, type TemplateLanguage } from './template-form';
import { VariableList } from './VariableList';

export type TextField = 'subject' | 'body';

export interface TemplateTextsProps {
  subject: LanguageTexts;
  body: LanguageTexts;
  onChange: (field: TextField, language: TemplateLanguage, text: string) => void;
  readOnly: boolean;
  /** The problem the API found in one text, shown at it and on its tab. */
  problem?: TextProblem | null;
  /** Said under the default tab's fields (what an empty text means). */
  defaultNote?: string;
}

export function TemplateTexts({ subject, body, onChange, readOnly, problem, defaultNote }: TemplateTextsProps) {
  const { t } = useTranslation(['templates', 'settings']);
  const [language, setLanguage] = useState<TemplateLanguage>('default');
  const inputs = useRef(new Map<string, HTMLInputElement | HTMLTextAreaElement>());
  const lastField = useRef<TextField>('body');
  const texts = { subject, body };

  const insert = (snippet: string) => {
    const field = lastField.current;
    const element = inputs.current.get(`${field}.${language}`);
    const text = texts[field][language] ?? '';
    const start = element?.selectionStart ?? text.length;
    const end = element?.selectionEnd ?? start;
    onChange(field, language, text.slice(0, start) + snippet + text.slice(end));
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + snippet.length, start + snippet.length);
    });
  };

  const textInput = (field: TextField, key: TemplateLanguage) => ({
    ref: (element: HTMLInputElement | HTMLTextAreaElement | null) => {
      if (element) inputs.current.set(`${field}.${key}`, element);
    },
    value: texts[field][key] ?? '',
    readOnly,
    error: problem?.field === field && problem.language === key ? problem.message : undefined,
    onFocus: () => { lastField.current = field; },
    onChange: (event: { currentTarget: { value: string } }) => onChange(field, key, event.currentTarget.value),
  });

  const subjectInput = (key: TemplateLanguage) => textInput('subject', key);
  const bodyInput = (key: TemplateLanguage) => textInput('body', key);

  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Tabs value={language} onChange={(value) => value && setLanguage(value as TemplateLanguage)}>
          <Tabs.List>
            {TEMPLATE_LANGUAGES.map((key) => (
              <Tabs.Tab key={key} value={key} color={problem?.language === key ? 'red' : undefined}>{t(`settings:languageName.${key}`)}</Tabs.Tab>
            ))}
          </Tabs.List>
          {TEMPLATE_LANGUAGES.map((key) => (
            <Tabs.Panel key={key} value={key} pt="sm">
              <Stack gap="sm">
                {key === 'default' && <Text size="xs" c="dimmed">{defaultNote ?? t('texts.defaultNote')}</Text>}
                <TextInput label={t('texts.subject', { language: t(`settings:languageName.${key}`) })} {...subjectInput(key)} />
                <Textarea label={t('texts.body', { language: t(`settings:languageName.${key}`) })} autosize minRows={8} {...bodyInput(key)} />
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <VariableList onInsert={insert} disabled={readOnly} />
      </Grid.Col>
    </Grid>
  );
}
