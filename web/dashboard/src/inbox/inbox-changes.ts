/**
 * Tells the navigation's unread badge that messages were read or marked unread on a page, so it counts again
 * without a reload.
 */
const listeners = new Set<() => void>();

export function onInboxChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function inboxChanged(): void {
  for (const listener of listeners) listener();
}
