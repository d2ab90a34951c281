/** An API error as the API worded it: message, details (one reason per line) and hint, with its code. */
import { Alert, Code, Text } from '@mantine/core';
import { toApiError } from '../api/errors';

export function ErrorAlert({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  if (!error) return null;
  const { body, status } = toApiError(error);
  return (
    <Alert color="red" title={title} role="alert" variant="light">
      <Text size="sm">{body.message}</Text>
      {body.details && <Text size="sm" style={{ whiteSpace: 'pre-line' }}>{body.details}</Text>}
      {body.hint && <Text size="sm" c="dimmed">{body.hint}</Text>}
      {body.code && <Text size="xs" c="dimmed" mt={4}>Code <Code>{body.code}</Code>{status ? ` · HTTP ${status}` : ''}</Text>}
    </Alert>
  );
}
