/** Inviting a member to log in (server: src/dashboard/invitation-routes.ts): an e-mail with a set-password link. */
import { requestJson } from './http';

export const inviteMember = (memberId: string) =>
  requestJson<{ member_id: string; email: string; sent: boolean }>('POST', '/admin/api/invitations', { member_id: memberId });
