/**
 * Members of the organization and what each may do: role (owners and admins may do everything) and permissions per
 * resource. A member with an e-mail address and no login is invited to log in from here (an e-mail with a link to
 * choose a password), or with `staykit user create` (docs/dashboard.md).
 */
import { useState, type FormEvent } from 'react';
import { Badge, Button, CloseButton, Group, Loader, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import type { PostgrestSingleResponse } from '@supabase/postgrest-js';
import { useTranslation } from 'react-i18next';
import { database, rowsOf, selectList, when, type Enums, type Permitted, type Selected, type TablesInsert } from '../api/database';
import type { Can } from '../api/permissions';
import { inviteMember } from '../api/invitations';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { labelledKeys } from '../i18n/labelled-keys';
import { useWorkspace } from '../shell/context';
import { settingsMessages } from './messages.js';
import { NAMED_RESOURCES, useResourceName } from './resource-names';

const membersSelect = (can: Can) => selectList('id,name,email,role,active,user_id', when(can('permissions'), 'permissions(id,resource,access)'));
type Member = Permitted<Selected<'members', ReturnType<typeof membersSelect>>, 'permissions'>;
type Role = Enums<'members_role'>;
type Access = Enums<'permissions_access'>;

/** The roles and access levels: the keys of their names, which are keyed by the database's own lists. */
const ROLES = labelledKeys<Role>()(settingsMessages.en.role);
const ACCESS = labelledKeys<Access>()(settingsMessages.en.access);
/** Roles that may do everything: their permissions are not asked for. */
const EVERYTHING_ROLES: readonly Role[] = ['owner', 'admin'];
/** Resources granted for reading only: `reports` is every report view, which nothing writes. */
const READ_ONLY: readonly string[] = ['reports'];
const accessOn = (resource: string | null): readonly Access[] => (resource && READ_ONLY.includes(resource) ? ACCESS.filter((access) => access === 'read') : ACCESS);

export function Members() {
  const { can } = useWorkspace();
  const members = useLoad(async (): Promise<Member[]> => rowsOf(await database.from('members').select(membersSelect(can)).order('name')), [can]);
  const [error, setError] = useState<unknown>(null);
  const mayWrite = can('members', 'write');
  const mayReadPermissions = can('permissions');
  const mayGrant = can('permissions', 'write');
  const { t } = useTranslation('settings');
  const resourceName = useResourceName();
  const roles = ROLES.map((role) => ({ value: role, label: t(`role.${role}`) }));
  const act = async (work: () => PromiseLike<PostgrestSingleResponse<unknown>>) => {
    setError(null);
    try {
      rowsOf(await work());
      members.reload();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <Stack>
      <Title order={2}>{t('members.title')}</Title>
      <Text size="sm">{t('members.intro')}</Text>
      <ErrorAlert error={members.error ?? error} title={t('members.title')} />
      {mayWrite && <NewMember onAdded={members.reload} />}
      {members.loading && !members.data && <Loader size="sm" role="status" aria-label={t('members.loading')} />}
      {members.data?.map((member) => (
        <Paper withBorder p="md" key={member.id} component="section" aria-label={t('members.member', { name: member.name })}>
          <Group justify="space-between" wrap="wrap">
            <Stack gap={0}>
              <Text fw={600}>{member.active ? member.name : t('members.former', { name: member.name })}</Text>
              <Text size="sm" c="dimmed">{member.email ?? t('members.noEmail')} · {member.user_id ? t('members.hasLogin') : t('members.noLogin')}</Text>
            </Stack>
            <Group gap="xs">
              {mayWrite && member.active && member.email && !member.user_id && <InviteButton member={member} />}
              <Select aria-label={t('members.roleOf', { name: member.name })} data={roles} value={member.role} disabled={!mayWrite} w={160}
                onChange={(role) => role && act(() => database.from('members').update({ role }).eq('id', member.id))} allowDeselect={false} />
            </Group>
          </Group>
          {mayReadPermissions && !EVERYTHING_ROLES.includes(member.role) && (
            <Stack gap="xs" mt="sm">
              <Group gap="xs">
                {member.permissions?.length === 0 && <Text size="sm" c="dimmed">{t('members.noPermissions')}</Text>}
                {member.permissions?.map((permission) => {
                  const grant = t('grant', { resource: resourceName(permission.resource), access: t(`access.${permission.access}`) });
                  return (
                  <Badge key={permission.id} variant="outline" color="dark" tt="none"
                    rightSection={mayGrant ? <CloseButton size="xs" aria-label={t('members.removeGrant', { grant })}
                      onClick={() => act(() => database.from('permissions').delete().eq('id', permission.id))} /> : undefined}>
                    {grant}
                  </Badge>
                  );
                })}
              </Group>
              {mayGrant && <NewPermission memberId={member.id} name={member.name} onAdd={(body) => act(() => database.from('permissions').insert(body))} />}
            </Stack>
          )}
        </Paper>
      ))}
    </Stack>
  );
}

/** Stays on the page as "Invitation sent" (the list is not reloaded: the member now has a login without a password yet). */
function InviteButton({ member }: { member: Member }) {
  const { t } = useTranslation('settings');
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [error, setError] = useState<unknown>(null);
  const invite = async () => {
    setError(null);
    setState('sending');
    try {
      await inviteMember(member.id);
      setState('sent');
    } catch (failure) {
      setError(failure);
      setState('idle');
    }
  };
  return (
    <Stack gap={4}>
      <Button size="xs" variant="light" loading={state === 'sending'} disabled={state === 'sent'} onClick={invite}>
        {state === 'sent' ? t('members.invitationSent') : t('members.invite')}
      </Button>
      <ErrorAlert error={error} title={t('members.inviteFailed')} />
    </Stack>
  );
}

function NewPermission({ memberId, name, onAdd }: { memberId: string; name: string; onAdd: (body: TablesInsert<'permissions'>) => void }) {
  const { t } = useTranslation('settings');
  const resourceName = useResourceName();
  const [resource, setResource] = useState<string | null>('calendar_events');
  const [access, setAccess] = useState<Access | null>('read');
  return (
    <Group gap="xs" align="flex-end">
      <Select label={t('members.resource')} aria-label={t('members.resourceFor', { name })} data={NAMED_RESOURCES.map((value) => ({ value, label: resourceName(value) }))} value={resource} searchable w={200} size="xs"
        onChange={(value) => { setResource(value); if (!accessOn(value).includes(access!)) setAccess('read'); }} />
      <Select label={t('members.access')} aria-label={t('members.accessFor', { name })} data={accessOn(resource).map((value) => ({ value, label: t(`access.${value}`) }))} value={access} onChange={setAccess} w={100} size="xs" />
      <Button size="xs" variant="default" disabled={!resource || !access} onClick={() => onAdd({ member_id: memberId, resource: resource!, access: access! })}>{t('members.grant')}</Button>
    </Group>
  );
}

function NewMember({ onAdded }: { onAdded: () => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const { t } = useTranslation('settings');
  const [role, setRole] = useState<Role>('staff');
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      rowsOf(await database.from('members').insert({ name, email: email || null, role }));
      setName('');
      setEmail('');
      onAdded();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label={t('members.addForm')}>
      <ErrorAlert error={error} title={t('members.addFailed')} />
      <Group align="flex-end" wrap="wrap">
        <TextInput label={t('members.name')} required value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <TextInput label={t('members.email')} type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
        <Select label={t('members.role')} data={ROLES.map((value) => ({ value, label: t(`role.${value}`) }))} value={role} onChange={(value) => value && setRole(value)} allowDeselect={false} w={160} />
        <Button type="submit">{t('members.add')}</Button>
      </Group>
    </Paper>
  );
}
