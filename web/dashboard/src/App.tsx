/**
 * The dashboard: the login page without a session; with one, the organization's workspace (its locale, time zone
 * and currency, the member's permissions) around the shell.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Center, Loader } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { onSessionLost } from './api/http';
import { permissionsOf, type Can } from './api/permissions';
import { currentSession, type Session } from './api/session';
import { ErrorAlert } from './common/ErrorAlert';
import { formatterFor, localeOf, type OrganizationLocale } from './common/format';
import { loadPickerLocale } from './common/picker-locale';
import { currentPath, navigate, useLocation } from './common/router';
import { Login } from './shell/Login';
import { SetPassword } from './shell/SetPassword';
import { Shell } from './shell/Shell';
import { WorkspaceContext, type Workspace as WorkspaceValue } from './shell/context';

type State =
  | { kind: 'loading' }
  | { kind: 'signed-out' }
  | { kind: 'failed'; error: unknown }
  | { kind: 'signed-in'; session: Session; organization: OrganizationLocale; pickerLocale: string };

/** The organization's language, time zone and currency, as the session tells them; the browser's if it does not. */
function organizationLocale(organization: Session['organization']): OrganizationLocale {
  return {
    locale: localeOf(organization.language ?? navigator.language),
    timeZone: organization.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    currency: organization.currency ?? 'EUR',
  };
}

/** The page right after login: Today with bookings, else My tasks with tasks (a cleaner), else the calendar (`/`). */
const landingPath = (can: Can) => (can('bookings') ? '/today' : can('calendar_event_tasks') ? '/my-tasks' : '/');

export function App() {
  const { path, search } = useLocation();
  return path === '/set-password' ? <SetPassword token={search.get('token')} /> : <Workspace />;
}

/** The signed-in app, or the login page. */
function Workspace() {
  const { t } = useTranslation('shell');
  const [state, setState] = useState<State>({ kind: 'loading' });

  /** `afterLogin`: a member who may read bookings lands on Today, one who may read tasks on My tasks, others on the calendar. */
  const load = useCallback(async (afterLogin = false) => {
    setState({ kind: 'loading' });
    try {
      const session = await currentSession();
      if (!session) return setState({ kind: 'signed-out' });
      if (afterLogin && currentPath() === '/') navigate(landingPath(permissionsOf(session.member)), { replace: true });
      const organization = organizationLocale(session.organization);
      setState({ kind: 'signed-in', session, organization, pickerLocale: await loadPickerLocale(organization.locale) });
    } catch (error) {
      setState({ kind: 'failed', error });
    }
  }, []);

  useEffect(() => {
    onSessionLost(() => setState({ kind: 'signed-out' }));
    void load();
  }, [load]);

  const workspace = useMemo<WorkspaceValue | null>(() => {
    if (state.kind !== 'signed-in') return null;
    return {
      session: state.session,
      can: permissionsOf(state.session.member),
      format: formatterFor(state.organization),
      currency: state.organization.currency,
      locale: state.organization.locale,
      signedOut: () => setState({ kind: 'signed-out' }),
      reload: () => void load(),
    };
  }, [state, load]);

  if (state.kind === 'loading') return <Center mih="100vh"><Loader role="status" aria-label={t('start.loading')} /></Center>;
  if (state.kind === 'failed') return <Center mih="100vh" p="md"><ErrorAlert error={state.error} title={t('start.failed')} /></Center>;
  if (state.kind === 'signed-out' || !workspace) return <Login onLoggedIn={() => void load(true)} />;
  return (
    <WorkspaceContext.Provider value={workspace}>
      <DatesProvider settings={{ locale: state.pickerLocale }}>
        <Shell />
      </DatesProvider>
    </WorkspaceContext.Provider>
  );
}
