/** The login page: e-mail and password; the API's answer (wrong password, too many attempts) shown as it is. */
import { useState, type FormEvent } from 'react';
import { Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { logIn } from '../api/session';
import { ErrorAlert } from '../common/ErrorAlert';

export function Login({ onLoggedIn }: { onLoggedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await logIn(email, password);
      onLoggedIn();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={400}>
        <form onSubmit={submit} aria-labelledby="login-title">
          <Stack>
            <Title order={1} size="h2" id="login-title">Staykit</Title>
            <Text c="dimmed" size="sm">Log in to manage your units, calendar and bookings.</Text>
            <ErrorAlert error={error} title="Could not log in" />
            <TextInput label="E-mail" type="email" autoComplete="username" required value={email}
              onChange={(event) => setEmail(event.currentTarget.value)} data-autofocus autoFocus />
            <PasswordInput label="Password" autoComplete="current-password" required value={password}
              onChange={(event) => setPassword(event.currentTarget.value)} />
            <Button type="submit" loading={busy}>Log in</Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
