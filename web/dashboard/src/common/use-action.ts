/** Runs one action of the page at a time: busy while it runs, the API's error when it fails, `onDone` after it. */
import { useState } from 'react';

export function useAction(onDone: () => void) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async (name: string, action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(name);
    setError(null);
    try {
      await action();
      onDone();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(null);
    }
  };
  return { busy, error, setError, run };
}
