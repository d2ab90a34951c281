/**
 * The signed-in frame: header with the organization and a logout button, navigation (a drawer behind a burger on
 * a phone), and the page of the current path.
 */
import { useState } from 'react';
import { AppShell, Burger, Button, Group, NavLink, ScrollArea, Select, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { logOut, switchOrganization } from '../api/session';
import { ErrorAlert } from '../common/ErrorAlert';
import { Link, useLocation } from '../common/router';
import { useWorkspace } from './context';
import { LanguageMenu } from './LanguageMenu';
import { PRODUCT_NAME } from './messages';
import { Page } from './Page';
import { navigationFor } from './navigation';

export function Shell() {
  const { t } = useTranslation('shell');
  const workspace = useWorkspace();
  const { path } = useLocation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const items = navigationFor(workspace.can);

  const signOut = async () => {
    setBusy(true);
    try {
      await logOut();
      workspace.signedOut();
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          {/* On a phone the organization's name gives way (truncated) so the header never runs off the screen. */}
          <Group wrap="nowrap" gap="sm" miw={0} style={{ flex: 1 }}>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('header.navigation')} />
            <Title order={1} size="h4">{PRODUCT_NAME}</Title>
            <OrganizationName />
          </Group>
          <Group wrap="nowrap" gap="sm" style={{ flexShrink: 0 }}>
            <Text size="sm" visibleFrom="sm" c="dimmed">{workspace.session.user.email}</Text>
            <LanguageMenu />
            <Button variant="default" size="xs" onClick={signOut} loading={busy}>{t('header.logOut')}</Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('header.main')}>
        {/* The pages outnumber a laptop screen's height: the navigation scrolls on its own, the header stays. */}
        <AppShell.Section grow component={ScrollArea}>
          <VisuallyHidden><h2>{t('header.navigation')}</h2></VisuallyHidden>
          <Stack gap={2} component="nav">
            {items.map((item) => (
              <NavLink key={item.to} component={Link} to={item.to} label={t(`navigation.${item.label}`)} rightSection={item.badge?.()} variant="filled"
                active={item.to === '/' ? path === '/' : path.startsWith(item.to)} onClick={close}
                aria-current={(item.to === '/' ? path === '/' : path.startsWith(item.to)) ? 'page' : undefined} />
            ))}
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <ErrorAlert error={error} title={t('header.logOutFailed')} />
        <Page path={path} />
      </AppShell.Main>
    </AppShell>
  );
}

/** The organization worked in; a switch when the user belongs to several. */
function OrganizationName() {
  const { t } = useTranslation('shell');
  const { session, reload } = useWorkspace();
  const [error, setError] = useState<unknown>(null);
  if (session.organizations.length < 2) {
    return <Text size="sm" c="dimmed" truncate data-testid="organization-name">{session.organization.name}</Text>;
  }
  const choose = async (id: string | null) => {
    if (!id || id === session.organization.id) return;
    try {
      await switchOrganization(id);
      reload();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <>
      <Select aria-label={t('header.organization')} data-testid="organization-name" size="xs" w={220} value={session.organization.id} onChange={choose}
        data={session.organizations.map((organization) => ({ value: organization.id, label: organization.name }))} allowDeselect={false} />
      <ErrorAlert error={error} title={t('header.switchFailed')} />
    </>
  );
}
