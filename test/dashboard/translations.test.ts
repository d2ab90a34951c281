/**
 * The dashboard's words (web/dashboard/src/i18n/resources.ts): the compiler already makes Dutch and German have
 * English's keys; this checks what it cannot — no text is empty and each translation has the same `{{placeholders}}`
 * as the English, so no value goes missing or shows as `{{name}}`.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { NAMESPACES } from '../../web/dashboard/src/i18n/resources.js';
import type { MessageTree } from '../../web/dashboard/src/i18n/messages.js';

function leaves(tree: MessageTree, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [[prefix + key, value] as [string, string]] : leaves(value, `${prefix}${key}.`)));
}
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

it('every namespace has its texts in English, Dutch and German, none empty, with the same placeholders', () => {
  assert.ok(Object.keys(NAMESPACES).length >= 2);
  for (const [name, messages] of Object.entries(NAMESPACES)) {
    const english = new Map(leaves(messages.en));
    for (const language of ['nl', 'de'] as const) {
      const translated = new Map(leaves(messages[language] as MessageTree));
      assert.deepEqual([...translated.keys()].sort(), [...english.keys()].sort(), `${name}: ${language} has English's keys`);
      for (const [key, text] of translated) {
        assert.ok(text.trim() !== '', `${name}:${key} is empty in ${language}`);
        assert.deepEqual(placeholders(text), placeholders(english.get(key)!), `${name}:${key} in ${language} has English's placeholders`);
      }
    }
  }
});
