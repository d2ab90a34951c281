/**
 * The languages the dashboard speaks — the ones Staykit speaks to guests — and the one a person reads it in: their
 * own choice on this device, else the first of the browser's languages the dashboard speaks, else English. The
 * organization's language decides only how dates and money are written (common/format.ts), since the people of one
 * organization may read different languages.
 */
import { GUEST_LANGUAGES, type GuestLanguage } from '../../../../src/common/translate.js';

export const DASHBOARD_LANGUAGES = GUEST_LANGUAGES;
export type DashboardLanguage = GuestLanguage;

/** Each language's name in itself, as the language menu shows it. */
export const LANGUAGE_NAMES: Record<DashboardLanguage, string> = { en: 'English', nl: 'Nederlands', de: 'Deutsch' };

const STORAGE_KEY = 'staykit.dashboard.language';

function spoken(tag: string | null | undefined): DashboardLanguage | undefined {
  const primary = tag?.toLowerCase().split(/[-_]/)[0];
  return DASHBOARD_LANGUAGES.find((language) => language === primary);
}

export function preferredLanguage(): DashboardLanguage {
  const chosen = spoken(safeStorage()?.getItem(STORAGE_KEY));
  return chosen ?? navigator.languages.map(spoken).find((language) => language !== undefined) ?? 'en';
}

export function rememberLanguage(language: DashboardLanguage): void {
  safeStorage()?.setItem(STORAGE_KEY, language);
}

/** localStorage, or nothing where the browser refuses it (private modes, blocked storage). */
function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
