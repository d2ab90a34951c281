/** What every page needs: who is logged in, what they may do, and dates and money as the reader writes them. */
import { createContext, useContext } from 'react';
import type { Can } from '../api/permissions';
import type { Session } from '../api/session';
import type { Formatter } from '../common/format';

export interface Workspace {
  session: Session;
  can: Can;
  format: Formatter;
  /** The organization's default currency. */
  currency: string;
  /** The reader's locale: their dashboard language in the organization's region (common/format.ts). */
  locale: string;
  /** Ends the session (after logout on the server, or when the server says it is gone). */
  signedOut: () => void;
  /** Reads the session again (after switching organization). */
  reload: () => void;
}

export const WorkspaceContext = createContext<Workspace | null>(null);

export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error('useWorkspace outside the signed-in app');
  return workspace;
}
