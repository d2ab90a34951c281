/** The members a task can go to, as a select's choices: "cleo (Schoonmaker)", the role in the reader's language. */
import { useTranslation } from 'react-i18next';
import type { MemberName } from './queries';

export function useMemberChoices(members: readonly MemberName[]): { value: string; label: string }[] {
  const { t } = useTranslation('settings');
  return members.map((member) => ({ value: member.id, label: `${member.name} (${t(`role.${member.role}`)})` }));
}
