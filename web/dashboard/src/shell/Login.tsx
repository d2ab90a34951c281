/** The login page: e-mail and password; the API's answer (wrong password, too many attempts) shown as it is. */
import { useState, type FormEvent } from 'react';
import { Button, Center, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { logIn } from '../api/session';
import { ErrorAlert } from '../common/ErrorAlert';
import { LanguageMenu } from './LanguageMenu';
import { PRODUCT_NAME } from './messages';

export function Login({ onLoggedIn }: { onLoggedIn: () => void }) {
  const { t } = useTranslation('shell');
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
            <Group justify="space-between" wrap="nowrap">
              <Title order={1} size="h2" id="login-title">{PRODUCT_NAME}</Title>
              <LanguageMenu />
            </Group>
            <Text c="dimmed" size="sm">{t('login.intro')}</Text>
            <ErrorAlert error={error} title={t('login.failed')} />
            <TextInput label={t('login.email')} type="email" autoComplete="username" required value={email}
              onChange={(event) => setEmail(event.currentTarget.value)} data-autofocus autoFocus />
            <PasswordInput label={t('login.password')} autoComplete="current-password" required value={password}
              onChange={(event) => setPassword(event.currentTarget.value)} />
            <Button type="submit" loading={busy}>{t('login.submit')}</Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
