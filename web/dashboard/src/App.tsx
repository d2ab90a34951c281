/**
 * The dashboard: the login page without a session; with one, the organization's workspace (its time zone and
 * currency, the member's permissions, dates and numbers in the reader's language) around the shell.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Center, Loader } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { onSessionLost } from './api/http';
import { permissionsOf, type Can } from './api/permissions';
import { currentSession, type Session } from './api/session';
import { ErrorAlert } from './common/ErrorAlert';
import { formatterFor, readerLocale } from './common/format';
import { usePickerLocale } from './common/picker-locale';
import { currentPath, navigate, useLocation } from './common/router';
import { Login } from './shell/Login';
import { SetPassword } from './shell/SetPassword';
import { Shell } from './shell/Shell';
import { WorkspaceContext, type Workspace as WorkspaceValue } from './shell/context';

type State =
  | { kind: 'loading' }
  | { kind: 'signed-out' }
  | { kind: 'failed'; error: unknown }
  | { kind: 'signed-in'; session: Session };

/** The page right after login: Today with bookings, else My tasks with tasks (a cleaner), else the calendar (`/`). */
const landingPath = (can: Can) => (can('bookings') ? '/today' : can('calendar_event_tasks') ? '/my-tasks' : '/');

export function App() {
  const { path, search } = useLocation();
  return path === '/set-password' ? <SetPassword token={search.get('token')} /> : <Workspace />;
}

/** The signed-in app, or the login page. */
function Workspace() {
  const { t, i18n } = useTranslation('shell');
  const [state, setState] = useState<State>({ kind: 'loading' });

  /** `afterLogin`: a member who may read bookings lands on Today, one who may read tasks on My tasks, others on the calendar. */
  const load = useCallback(async (afterLogin = false) => {
    setState({ kind: 'loading' });
    try {
      const session = await currentSession();
      if (!session) return setState({ kind: 'signed-out' });
      if (afterLogin && currentPath() === '/') navigate(landingPath(permissionsOf(session.member)), { replace: true });
      setState({ kind: 'signed-in', session });
    } catch (error) {
      setState({ kind: 'failed', error });
    }
  }, []);

  useEffect(() => {
    onSessionLost(() => setState({ kind: 'signed-out' }));
    void load();
  }, [load]);

  const session = state.kind === 'signed-in' ? state.session : null;
  // A new language re-renders the pages with new formats, but keeps the permissions (and what was loaded with them).
  const can = useMemo(() => session && permissionsOf(session.member), [session]);
  // The reader's language (the language menu) in the organization's region.
  const locale = readerLocale(i18n.resolvedLanguage ?? 'en', session?.organization.language);
  const pickerLocale = usePickerLocale(locale);
  const workspace = useMemo<WorkspaceValue | null>(() => {
    if (!session || !can) return null;
    const currency = session.organization.currency ?? 'EUR';
    const timeZone = session.organization.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    return {
      session,
      can,
      format: formatterFor({ locale, timeZone, currency }),
      currency,
      locale,
      signedOut: () => setState({ kind: 'signed-out' }),
      reload: () => void load(),
    };
  }, [session, can, locale, load]);

  if (state.kind === 'loading') return <Center mih="100vh"><Loader role="status" aria-label={t('start.loading')} /></Center>;
  if (state.kind === 'failed') return <Center mih="100vh" p="md"><ErrorAlert error={state.error} title={t('start.failed')} /></Center>;
  if (state.kind === 'signed-out' || !workspace) return <Login onLoggedIn={() => void load(true)} />;
  return (
    <WorkspaceContext.Provider value={workspace}>
      <DatesProvider settings={{ locale: pickerLocale }}>
        <Shell />
      </DatesProvider>
    </WorkspaceContext.Provider>
  );
}
