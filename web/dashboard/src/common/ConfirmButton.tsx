/**
 * A button for what cannot be undone with one click: the first click asks ("Remove the block?"), a second says yes;
 * "Keep" puts it back. Keyboard and screen readers see plain buttons and the question.
 */
import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';

export interface ConfirmButtonProps {
  /** The button's text, e.g. "Delete". */
  children: string;
  /** The question asked before acting, e.g. "Delete coupon SUMMER10?". */
  question: string;
  onConfirm: () => void;
  loading?: boolean;
  size?: 'xs' | 'sm';
  'aria-label'?: string;
}

export function ConfirmButton({ children, question, onConfirm, loading, size = 'sm', ...rest }: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return <Button size={size} color="red" variant="outline" loading={loading} aria-label={rest['aria-label']} onClick={() => setAsking(true)}>{children}</Button>;
  }
  return (
    <Group gap="xs" wrap="nowrap" role="group" aria-label={question}>
      <Text size={size}>{question}</Text>
      <Button size={size} color="red" loading={loading} onClick={() => { setAsking(false); onConfirm(); }}>Yes, {children.toLowerCase()}</Button>
      <Button size={size} variant="default" onClick={() => setAsking(false)}>Keep</Button>
    </Group>
  );
}
