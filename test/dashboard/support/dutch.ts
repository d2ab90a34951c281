/**
 * What the Dutch browser tests need: the dashboard's Dutch words by their keys (the same i18next and messages the
 * dashboard runs on, so a test finds a button by the text a Dutch reader sees, and a reworded text cannot break it),
 * the check that a page shows none of the dashboard's English texts, and the check that it shows no message key
 * (i18next shows the key itself when a text is missing).
 */
import { createInstance, type TFunction } from 'i18next';
import type { Locator, Page } from 'playwright-core';
import { LANGUAGE_NAMES } from '../../../web/dashboard/src/i18n/languages.js';
import { NAMESPACES } from '../../../web/dashboard/src/i18n/resources.js';
import type { MessageTree } from '../../../web/dashboard/src/i18n/messages.js';

const dutch = createInstance();
void dutch.init({
  lng: 'nl',
  resources: { nl: Object.fromEntries(Object.entries(NAMESPACES).map(([name, messages]) => [name, messages.nl])) },
  ns: Object.keys(NAMESPACES),
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** A Dutch text of the dashboard by `namespace:key`, with its placeholders filled: `nl('today:requests.accept')`. */
export const nl: TFunction = dutch.t.bind(dutch) as TFunction;

function leaves(english: MessageTree, translated: MessageTree): Array<[string, string]> {
  return Object.entries(english).flatMap(([key, value]) => {
    const other = translated[key]!;
    return typeof value === 'string' ? [[value, other as string] as [string, string]] : leaves(value, other as MessageTree);
  });
}

/**
 * The English texts a Dutch page must not show: those whose Dutch differs, without placeholders (a text with one is
 * never shown as written), and with a word in them (not "€" or "—").
 */
const ENGLISH_ONLY = new Set(Object.values(NAMESPACES)
  .flatMap((messages) => leaves(messages.en, messages.nl as MessageTree))
  .filter(([english, translated]) => english !== translated && !english.includes('{{') && /[A-Za-z]{2}/.test(english))
  .map(([english]) => english.trim())
  // Shown as they are on purpose: each language's name in itself (the language menu) and the API's scope words, which
  // a key's scopes are written in (`read`, `write`: what an integration sends).
  .filter((english) => !(Object.values(LANGUAGE_NAMES) as string[]).includes(english) && !['read', 'write'].includes(english)));

/** What a person is shown in `scope` (default the whole page): each text node, and the attributes read out or shown. */
function shownTexts(page: Page, scope?: Locator): Promise<string[]> {
  return (scope ?? page.locator('body')).evaluateAll((roots) => roots.flatMap((root) => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent && parent.closest('script, style, [hidden]') === null && node.textContent!.trim() !== '') texts.push(node.textContent!.trim());
    }
    for (const element of root.querySelectorAll('[aria-label], [placeholder], [title], img[alt]')) {
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(name)?.trim();
        if (value) texts.push(value);
      }
    }
    return texts;
  }));
}

/** Every message key as a page would show a missing one: `booking:payments.title`, or `payments.title`. */
function keyPaths(tree: MessageTree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : keyPaths(value, `${prefix}${key}.`)));
}
const KEYS = new Set(Object.entries(NAMESPACES).flatMap(([namespace, messages]) => keyPaths(messages.en)
  .map((path) => path.replace(/_(one|other)$/, ''))
  // A one-word path without its namespace ("title") could be a word a page shows; with a dot it cannot.
  .flatMap((path) => [`${namespace}:${path}`, ...(path.includes('.') ? [path] : [])])));

/** The message keys `page` shows in place of a text, each once. */
export async function keysShown(page: Page): Promise<string[]> {
  return [...new Set((await shownTexts(page)).filter((text) => KEYS.has(text)))];
}

/** The dashboard's English texts `page` (or parts of it: a dialog and its open menu) shows, each once. */
export async function englishShown(page: Page, scope?: Locator): Promise<string[]> {
  return [...new Set((await shownTexts(page, scope)).filter((text) => ENGLISH_ONLY.has(text)))];
}
