/** The organization's API keys (server: src/dashboard/api-key-routes.ts). */
import { requestJson } from './http';

export interface ApiKey {
  id: string;
  key_id: string;
  name: string;
  scopes: string[];
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

const PATH = '/admin/api/keys';

export const listKeys = () => requestJson<ApiKey[]>('GET', PATH);

/** The new key with its secret (`api_key`): the only time the server shows it. */
export const createKey = (key: { name: string; scopes: string[]; expires_at: string | null }) =>
  requestJson<ApiKey & { api_key: string }>('POST', PATH, key);

export const revokeKey = (id: string) => requestJson<ApiKey>('DELETE', `${PATH}/${encodeURIComponent(id)}`);
