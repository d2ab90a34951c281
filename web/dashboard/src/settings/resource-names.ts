/**
 * A resource's name in the reader's language (the `resource` names of ./messages.ts), for what the API names by its
 * table (`bookings`): a scope, a permission, a webhook event's group. A name the dashboard has no word for is shown as
 * the API writes it.
 */
import { useTranslation } from 'react-i18next';
import type { Resource } from '../api/permissions';
import { settingsMessages } from './messages.js';

/** Compiles only while every name is for `*` or a resource the API knows. */
type Known<Names extends '*' | Resource> = Names;

export type NamedResource = Known<keyof typeof settingsMessages.en.resource>;

/** The resources with a name, in the order the member page offers them. */
export const NAMED_RESOURCES = Object.keys(settingsMessages.en.resource) as NamedResource[];

export const isNamedResource = (resource: string): resource is NamedResource => (NAMED_RESOURCES as readonly string[]).includes(resource);

export function useResourceName(): (resource: string) => string {
  const { t } = useTranslation('settings');
  return (resource) => (isNamedResource(resource) ? t(`resource.${resource}`) : resource);
}
