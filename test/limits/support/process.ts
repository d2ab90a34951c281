/** Starts `limited-server.ts` as a child process and waits for its address. */
import { startChildServer, type ServerProcess } from '../../support/server-process.js';

export function startLimitedServer(env: Record<string, string>): Promise<ServerProcess> {
  return startChildServer(['--import', 'tsx', 'test/limits/support/limited-server.ts'], env);
}
