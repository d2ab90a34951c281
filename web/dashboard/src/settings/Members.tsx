/**
 * Members of the organization and what each may do: role (owners and admins may do everything) and permissions per
 * resource. A member with an e-mail address and no login is invited to log in from here (an e-mail with a link to
 * choose a password), or with `staykit user create` (docs/dashboard.md).
 */
import { useState, type FormEvent } from 'react';
import { Badge, Button, CloseButton, Group, Loader, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import type { PostgrestSingleResponse } from '@supabase/postgrest-js';
import { database, rowsOf, selectList, valuesOf, when, type Enums, type Permitted, type Selected, type TablesInsert } from '../api/database';
import type { Can, Resource } from '../api/permissions';
import { inviteMember } from '../api/invitations';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';

const membersSelect = (can: Can) => selectList('id,name,email,role,active,user_id', when(can('permissions'), 'permissions(id,resource,access)'));
type Member = Permitted<Selected<'members', ReturnType<typeof membersSelect>>, 'permissions'>;
type Role = Enums<'members_role'>;
type Access = Enums<'permissions_access'>;

const ROLES = valuesOf<'members_role'>()('owner', 'admin', 'manager', 'staff', 'cleaner', 'maintenance');
const ACCESS = valuesOf<'permissions_access'>()('read', 'write');
/** What a permission is granted on: every resource (`*`) or one; `reports` is every report view, read-only. */
const RESOURCES: ('*' | Resource)[] = ['*', 'calendar_events', 'calendar_event_tasks', 'bookings', 'contacts', 'products', 'product_configurations', 'price_calendar_entries', 'coupons', 'payments', 'messages', 'email_templates', 'webhooks', 'members', 'permissions', 'api_keys', 'reports'];
const READ_ONLY: readonly string[] = ['reports'];
const accessOn = (resource: string | null): readonly Access[] => (resource && READ_ONLY.includes(resource) ? ACCESS.filter((access) => access === 'read') : ACCESS);

export function Members() {
  const { can } = useWorkspace();
  const members = useLoad(async (): Promise<Member[]> => rowsOf(await database.from('members').select(membersSelect(can)).order('name')), [can]);
  const [error, setError] = useState<unknown>(null);
  const mayWrite = can('members', 'write');
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
      <Title order={2}>Members</Title>
      <Text size="sm">Owners and admins may do everything. Everyone else may do what their permissions allow — the server enforces it, not only this page. A member with an e-mail address is invited to log in with an e-mail that lets them choose a password.</Text>
      <ErrorAlert error={members.error ?? error} title="Members" />
      {mayWrite && <NewMember onAdded={members.reload} />}
      {members.loading && !members.data && <Loader size="sm" role="status" aria-label="Loading members" />}
      {members.data?.map((member) => (
        <Paper withBorder p="md" key={member.id} component="section" aria-label={`Member ${member.name}`}>
          <Group justify="space-between" wrap="wrap">
            <Stack gap={0}>
              <Text fw={600}>{member.name}{!member.active && ' (former member)'}</Text>
              <Text size="sm" c="dimmed">{member.email ?? 'no e-mail'} · {member.user_id ? 'has a login' : 'no login'}</Text>
            </Stack>
            <Group gap="xs">
              {mayWrite && member.active && member.email && !member.user_id && <InviteButton member={member} />}
              <Select aria-label={`Role of ${member.name}`} data={ROLES} value={member.role} disabled={!mayWrite} w={160}
                onChange={(role) => role && act(() => database.from('members').update({ role }).eq('id', member.id))} allowDeselect={false} />
            </Group>
          </Group>
          {can('permissions') && !['owner', 'admin'].includes(member.role) && (
            <Stack gap="xs" mt="sm">
              <Group gap="xs">
                {member.permissions?.length === 0 && <Text size="sm" c="dimmed">No permissions: sees only the units.</Text>}
                {member.permissions?.map((permission) => (
                  <Badge key={permission.id} variant="outline" color="dark" tt="none"
                    rightSection={can('permissions', 'write') ? <CloseButton size="xs" aria-label={`Remove ${permission.resource}:${permission.access}`}
                      onClick={() => act(() => database.from('permissions').delete().eq('id', permission.id))} /> : undefined}>
                    {permission.resource}:{permission.access}
                  </Badge>
                ))}
              </Group>
              {can('permissions', 'write') && <NewPermission memberId={member.id} name={member.name} onAdd={(body) => act(() => database.from('permissions').insert(body))} />}
            </Stack>
          )}
        </Paper>
      ))}
    </Stack>
  );
}

/** Stays on the page as "Invitation sent" (the list is not reloaded: the member now has a login without a password yet). */
function InviteButton({ member }: { member: Member }) {
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
        {state === 'sent' ? 'Invitation sent' : 'Invite to log in'}
      </Button>
      <ErrorAlert error={error} title="The invitation was not sent" />
    </Stack>
  );
}

function NewPermission({ memberId, name, onAdd }: { memberId: string; name: string; onAdd: (body: TablesInsert<'permissions'>) => void }) {
  const [resource, setResource] = useState<string | null>('calendar_events');
  const [access, setAccess] = useState<Access | null>('read');
  return (
    <Group gap="xs" align="flex-end">
      <Select label="Resource" aria-label={`Resource for ${name}`} data={RESOURCES} value={resource} searchable w={200} size="xs"
        onChange={(value) => { setResource(value); if (!accessOn(value).includes(access!)) setAccess('read'); }} />
      <Select label="Access" aria-label={`Access for ${name}`} data={accessOn(resource)} value={access} onChange={setAccess} w={100} size="xs" />
      <Button size="xs" variant="default" disabled={!resource || !access} onClick={() => onAdd({ member_id: memberId, resource: resource!, access: access! })}>Grant</Button>
    </Group>
  );
}

function NewMember({ onAdded }: { onAdded: () => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
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
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label="Add a member">
      <ErrorAlert error={error} title="The member was not added" />
      <Group align="flex-end" wrap="wrap">
        <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <TextInput label="E-mail" type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
        <Select label="Role" data={ROLES} value={role} onChange={(value) => value && setRole(value)} allowDeselect={false} w={160} />
        <Button type="submit">Add member</Button>
      </Group>
    </Paper>
  );
}
