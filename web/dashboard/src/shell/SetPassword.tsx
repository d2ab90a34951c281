/**
 * The page of a one-time set-password link (`/admin/set-password?token=…`, printed by `staykit user create` and
 * `reset-password`): choose a password, then log in with it.
 */
import { useState, type FormEvent } from 'react';
import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { setPassword } from '../api/session';
import { ErrorAlert } from '../common/ErrorAlert';
import { navigate } from '../common/router';

/** The server's rules (src/users/password-rules.ts); the server says why it refuses anything else. */
const MIN_LENGTH = 10;
const MAX_LENGTH = 256;

export function SetPassword({ token }: { token: string | null }) {
  const [password, setValue] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== repeat) return setError({ code: '', message: 'The two passwords differ.' });
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
          <Title order={1} size="h2">Set your password</Title>
          {!token && <Alert color="red" title="This link is incomplete">Open the whole link you were given, or ask for a new one.</Alert>}
          {done ? (
            <>
              <Alert color="green" title="Password set" role="status">You can log in with it now.</Alert>
              <Button onClick={() => navigate('/', { replace: true })}>Go to the login page</Button>
            </>
          ) : (
            <form onSubmit={submit}>
              <Stack>
                <Text size="sm" c="dimmed">At least {MIN_LENGTH} characters, and not a common or easily guessed password. A passphrase of a few uncommon words is easy to remember and hard to guess.</Text>
                <ErrorAlert error={error} title="The password was not set" />
                <PasswordInput label="New password" autoComplete="new-password" required minLength={MIN_LENGTH} maxLength={MAX_LENGTH} value={password}
                  onChange={(event) => setValue(event.currentTarget.value)} />
                <PasswordInput label="Repeat it" autoComplete="new-password" required value={repeat}
                  onChange={(event) => setRepeat(event.currentTarget.value)} />
                <Button type="submit" loading={busy} disabled={!token}>Set password</Button>
              </Stack>
            </form>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
