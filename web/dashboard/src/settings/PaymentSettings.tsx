/**
 * Payments: the organization's Stripe account — whether one is set up (with the last four characters of its secret
 * key, never the keys), the webhook endpoint to give Stripe, a form that stores new keys (`PUT /v1/payment-settings`)
 * and **Remove Stripe** — and where the payment schedule is set (per unit: the engine has no organization default).
 */
import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Code, Group, Loader, Paper, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { readPaymentSettings, removePaymentSettings, savePaymentSettings, stripeWebhookUrl, type PaymentSettingsState, type StripeKeys } from './payment-settings';

const NO_KEYS: StripeKeys = { stripe_secret_key: '', stripe_webhook_secret: '', success_url: '', cancel_url: '' };

export function PaymentSettings() {
  const { t } = useTranslation('businessSettings');
  const loaded = useLoad(readPaymentSettings, []);
  return (
    <Stack maw={760}>
      <Title order={2}>{t('payments.title')}</Title>
      <Text size="sm">{t('payments.intro')}</Text>
      <ErrorAlert error={loaded.error} title={t('loadFailed')} />
      {loaded.loading && !loaded.data && <Loader size="sm" role="status" aria-label={t('payments.title')} />}
      {loaded.data && <StripeAccount stored={loaded.data} />}
      <Paper withBorder p="md" component="section" aria-label={t('payments.scheduleTitle')}>
        <Stack gap="xs">
          <Title order={3} size="h4">{t('payments.scheduleTitle')}</Title>
          <Text size="sm">{t('payments.schedule')}</Text>
        </Stack>
      </Paper>
    </Stack>
  );
}

function StripeAccount({ stored }: { stored: PaymentSettingsState }) {
  const { t } = useTranslation('businessSettings');
  const { session, can, format } = useWorkspace();
  const mayWrite = can('organizations', 'write');
  const [state, setState] = useState(stored);
  const [keys, setKeys] = useState<StripeKeys>({ ...NO_KEYS, success_url: stored.success_url ?? '', cancel_url: stored.cancel_url ?? '' });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<'saved' | 'removed' | null>(null);
  const [failed, setFailed] = useState<'saveFailed' | 'removeFailed'>('saveFailed');

  const act = async (work: () => Promise<void>, success: 'saved' | 'removed', failure: 'saveFailed' | 'removeFailed') => {
    setError(null);
    setDone(null);
    setBusy(true);
    try {
      await work();
      setDone(success);
    } catch (problem) {
      setFailed(failure);
      setError(problem);
    } finally {
      setBusy(false);
    }
  };
  const save = () => act(async () => {
    setState(await savePaymentSettings(keys));
    // The secrets leave the page once stored: the server never gives them back either.
    setKeys((previous) => ({ ...previous, stripe_secret_key: '', stripe_webhook_secret: '' }));
  }, 'saved', 'saveFailed');
  const remove = () => act(async () => {
    await removePaymentSettings();
    setState({ provider: null });
  }, 'removed', 'removeFailed');
  const field = (name: keyof StripeKeys) => ({
    value: keys[name], readOnly: !mayWrite,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const { value } = event.currentTarget;
      setKeys((previous) => ({ ...previous, [name]: value }));
    },
  });
  const [secretKey, webhookSecret, successUrl, cancelUrl] = (['stripe_secret_key', 'stripe_webhook_secret', 'success_url', 'cancel_url'] as const).map(field);

  return (
    <Paper withBorder p="md" component="section" aria-label={t('payments.stripe')}>
      <Stack>
        <Title order={3} size="h4">{t('payments.stripe')}</Title>
        <Text size="sm" data-testid="stripe-state">
          {state.provider === 'stripe'
            ? t('payments.connected', { hint: state.secret_key_hint ?? '', date: state.updated_at ? format.date(format.dayOf(state.updated_at)) : '' })
            : t('payments.manual')}
        </Text>
        <Stack gap={4}>
          <Text size="sm" fw={500}>{t('payments.webhookUrl')}</Text>
          <Code block>{stripeWebhookUrl(window.location.origin, session.organization.id)}</Code>
          <Text size="xs" c="dimmed">{t('payments.webhookDescription')}</Text>
        </Stack>
        {mayWrite && (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <PasswordInput label={t('payments.secretKey.label')} description={t('payments.secretKey.description')} autoComplete="off" {...secretKey} />
              <PasswordInput label={t('payments.webhookSecret.label')} description={t('payments.webhookSecret.description')} autoComplete="off" {...webhookSecret} />
              <TextInput type="url" label={t('payments.successUrl.label')} description={t('payments.successUrl.description')} {...successUrl} />
              <TextInput type="url" label={t('payments.cancelUrl.label')} description={t('payments.cancelUrl.description')} {...cancelUrl} />
            </SimpleGrid>
            <ErrorAlert error={error} title={t(`payments.${failed}`)} />
            <Group>
              <Button onClick={save} loading={busy}>{state.provider === 'stripe' ? t('payments.replace') : t('payments.save')}</Button>
              {state.provider === 'stripe' && <Button variant="subtle" color="red" disabled={busy} onClick={remove}>{t('payments.remove')}</Button>}
              {done && <Text size="sm" role="status">{t(`payments.${done}`)}</Text>}
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
