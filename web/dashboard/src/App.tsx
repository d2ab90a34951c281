/**
 * The dashboard: the login page without a session; with one, the organization's workspace (its locale, time zone
 * and currency, the member's permissions) around the shell.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Center, Loader } from '@mantine/core';
import { database } from './api/database';
import { onSessionLost } from './api/http';
import { permissionsOf } from './api/permissions';
import { currentSession, type Session } from './api/session';
import { ErrorAlert } from './common/ErrorAlert';
import { formatterFor, localeOf, type OrganizationLocale } from './common/format';
import { Login } from './shell/Login';
import { Shell } from './shell/Shell';
import { WorkspaceContext, type Workspace } from './shell/context';

type State =
  | { kind: 'loading' }
  | { kind: 'signed-out' }
  | { kind: 'failed'; error: unknown }
  | { kind: 'signed-in'; session: Session; organization: OrganizationLocale };

/** The organization's language, time zone and currency; the browser's when the member may not read them. */
async function organizationLocale(organizationId: string): Promise<OrganizationLocale> {
  const { data } = await database.from('organizations').select('language,timezone,currency,settings').eq('id', organizationId).maybeSingle();
  const row = data as { language: string; timezone: string; currency: string; settings: { locale?: string } } | null;
  if (!row) return { locale: localeOf(navigator.language), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, currency: 'EUR' };
  return { locale: localeOf(row.settings?.locale ?? row.language), timeZone: row.timezone, currency: row.currency };
}

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });

  const load = useCallback(async () => {
    setState({ kind: 'loading' });
    try {
      const session = await currentSession();
      if (!session) return setState({ kind: 'signed-out' });
      setState({ kind: 'signed-in', session, organization: await organizationLocale(session.organization.id) });
    } catch (error) {
      setState({ kind: 'failed', error });
    }
  }, []);

  useEffect(() => {
    onSessionLost(() => setState({ kind: 'signed-out' }));
    void load();
  }, [load]);

  const workspace = useMemo<Workspace | null>(() => {
    if (state.kind !== 'signed-in') return null;
    return {
      session: state.session,
      can: permissionsOf(state.session.member),
      format: formatterFor(state.organization),
      currency: state.organization.currency,
      locale: state.organization.locale,
      signedOut: () => setState({ kind: 'signed-out' }),
    };
  }, [state]);

  if (state.kind === 'loading') return <Center mih="100vh"><Loader aria-label="Loading" /></Center>;
  if (state.kind === 'failed') return <Center mih="100vh" p="md"><ErrorAlert error={state.error} title="The dashboard could not start" /></Center>;
  if (state.kind === 'signed-out' || !workspace) return <Login onLoggedIn={() => void load()} />;
  return (
    <WorkspaceContext.Provider value={workspace}>
      <Shell />
    </WorkspaceContext.Provider>
  );
}
