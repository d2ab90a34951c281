/** Loads data for a page: `loading` until it arrives, the API's error when it fails, `reload()` after a change. */
import { useCallback, useEffect, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export function useLoad<T>(load: () => Promise<T>, dependencies: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: null, loading: true });
  const [round, setRound] = useState(0);
  // The caller names what `load` depends on, as with useEffect.
  const stableLoad = useCallback(load, dependencies);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    stableLoad().then(
      (data) => current && setState({ data, error: null, loading: false }),
      (error: unknown) => current && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
    return () => {
      current = false;
    };
  }, [stableLoad, round]);
  return { ...state, reload: () => setRound((value) => value + 1) };
}
