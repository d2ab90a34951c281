/**
 * The page of a one-time set-password link (`/admin/set-password?token=…`, printed by `staykit user create` and
 * `reset-password`): choose a password, then log in with it.
 */
import { useState, type FormEvent } from 'react';
import { Alert, Button, Center, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { setPassword } from '../api/session';
import { ErrorAlert } from '../common/ErrorAlert';
import { navigate } from '../common/router';
import { LanguageMenu } from './LanguageMenu';

/** The server's rules (src/users/password-rules.ts); the server says why it refuses anything else. */
const MIN_LENGTH = 10;
const MAX_LENGTH = 256;

export function SetPassword({ token }: { token: string | null }) {
  const { t } = useTranslation('shell');
  const [password, setValue] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== repeat) return setError({ code: '', message: t('setPassword.differ') });
    setBusy(true);
    setError(null);
    try {
      await setPassword(token ?? '', password);
      setDone(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <Stack>
          <Group justify="space-between" wrap="nowrap">
            <Title order={1} size="h2">{t('setPassword.title')}</Title>
            <LanguageMenu />
          </Group>
          {!token && <Alert color="red" title={t('setPassword.incomplete')}>{t('setPassword.incompleteText')}</Alert>}
          {done ? (
            <>
              <Alert color="green" title={t('setPassword.done')} role="status">{t('setPassword.doneText')}</Alert>
              <Button onClick={() => navigate('/', { replace: true })}>{t('setPassword.toLogin')}</Button>
            </>
          ) : (
            <form onSubmit={submit}>
              <Stack>
                <Text size="sm" c="dimmed">{t('setPassword.rules', { min: MIN_LENGTH })}</Text>
                <ErrorAlert error={error} title={t('setPassword.failed')} />
                <PasswordInput label={t('setPassword.password')} autoComplete="new-password" required minLength={MIN_LENGTH} maxLength={MAX_LENGTH} value={password}
                  onChange={(event) => setValue(event.currentTarget.value)} />
                <PasswordInput label={t('setPassword.repeat')} autoComplete="new-password" required value={repeat}
                  onChange={(event) => setRepeat(event.currentTarget.value)} />
                <Button type="submit" loading={busy} disabled={!token}>{t('setPassword.submit')}</Button>
              </Stack>
            </form>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
