/**
 * A button for what cannot be undone with one click: the first click asks ("Remove the block?"), a second says yes;
 * "Keep" puts it back. Keyboard and screen readers see plain buttons and the question.
 */
import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DashboardLanguage } from '../i18n/languages';

/**
 * Whether "Yes, …" starts the button's text in lower case ("Yes, remove block"): not in German, whose nouns keep
 * their capital ("Ja, Block entfernen").
 */
const LOWER_CASE_ACTION: Record<DashboardLanguage, boolean> = { en: true, nl: true, de: false };

export interface ConfirmButtonProps {
  /** The button's text, e.g. "Delete", in the reader's language. */
  children: string;
  /** The question asked before acting, e.g. "Delete coupon SUMMER10?". */
  question: string;
  onConfirm: () => void;
  loading?: boolean;
  size?: 'xs' | 'sm';
  'aria-label'?: string;
}

export function ConfirmButton({ children, question, onConfirm, loading, size = 'sm', ...rest }: ConfirmButtonProps) {
  const { t, i18n } = useTranslation();
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return <Button size={size} color="red" variant="outline" loading={loading} aria-label={rest['aria-label']} onClick={() => setAsking(true)}>{children}</Button>;
  }
  const language = i18n.resolvedLanguage as DashboardLanguage;
  const action = LOWER_CASE_ACTION[language] ? children.charAt(0).toLocaleLowerCase(language) + children.slice(1) : children;
  return (
    <Group gap="xs" wrap="nowrap" role="group" aria-label={question}>
      <Text size={size}>{question}</Text>
      <Button size={size} color="red" loading={loading} onClick={() => { setAsking(false); onConfirm(); }}>{t('confirmButton.yes', { action })}</Button>
      <Button size={size} variant="default" onClick={() => setAsking(false)}>{t('confirmButton.keep')}</Button>
    </Group>
  );
}
