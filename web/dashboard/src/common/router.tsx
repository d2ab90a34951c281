/**
 * Paths of the dashboard under /admin, with the browser's history: links are real links (open in a new tab,
 * keyboard and screen readers know them), and a reload or a shared URL opens the same page (the server answers
 * every /admin path with the app).
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export const BASE = '/admin';

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
};

/** The path inside the dashboard now, e.g. `/` for the calendar at /admin/. */
export const currentPath = () => {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : window.location.pathname;
  return path === '' ? '/' : path;
};

/** The path inside the dashboard, e.g. `/bookings/…`, and its query string. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const path = useSyncExternalStore(subscribe, currentPath);
  const search = useSyncExternalStore(subscribe, () => window.location.search);
  return { path, search: new URLSearchParams(search) };
}

export function navigate(to: string, { replace = false } = {}): void {
  const url = `${BASE}${to}`;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

/** An `<a>` that navigates inside the app without reloading it. */
export function Link({ to, onClick, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={`${BASE}${to}`} onClick={handle} {...props} />;
}

/** Matches `pattern` (`/bookings/:id`) against `path`; the named parts, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const regex = new RegExp(`^${pattern.replace(/:([a-z_]+)/g, (_, name: string) => { names.push(name); return '([^/]+)'; })}/?$`);
  const found = regex.exec(path);
  if (!found) return null;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1]!)]));
}
