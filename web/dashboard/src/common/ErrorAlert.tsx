/** An API error as the API worded it: message, details (one reason per line) and hint, with its code. */
import { Alert, Code, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toApiError } from '../api/errors';

/** `title` says what failed ("Could not save"), in the reader's language; the API's own words are the server's. */
export function ErrorAlert({ error, title }: { error: unknown; title?: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  const { body, status } = toApiError(error);
  return (
    <Alert color="red" title={title ?? t('error.title')} role="alert" variant="light">
      <Text size="sm">{body.message}</Text>
      {body.details && <Text size="sm" style={{ whiteSpace: 'pre-line' }}>{body.details}</Text>}
      {body.hint && <Text size="sm" c="dimmed">{body.hint}</Text>}
      {body.code && <Text size="xs" c="dimmed" mt={4}>{t('error.code')} <Code>{body.code}</Code>{status ? ` · HTTP ${status}` : ''}</Text>}
    </Alert>
  );
}
