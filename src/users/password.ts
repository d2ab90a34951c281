/**
 * Dashboard passwords: argon2id hashes (@node-rs/argon2 with its defaults — argon2id, 19 MiB, 2 passes, 1 lane, the
 * OWASP minimum), checked in constant time by the library. A login for an unknown e-mail address (or a user
 * without a password yet) still verifies a password against a hash of the same cost, so the failure takes as long as
 * a wrong password and the answer cannot tell the two apart.
 */
import { randomBytes } from 'node:crypto';

/** The native module loads at the first password operation: most processes (PostgreSQL mode, workers) never need it. */
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
const library = () => (argon2 ??= import('@node-rs/argon2'));

export async function hashPassword(password: string): Promise<string> {
  return (await library()).hash(password);
}

let decoy: Promise<string> | undefined;

/** A hash of a random password, made once per process: what a login without a stored hash is checked against. */
function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(24).toString('base64'));
  return decoy;
}

/** Whether `password` matches `storedHash`; with no stored hash, spends the same work and answers false. */
export async function passwordMatches(password: string, storedHash: string | null): Promise<boolean> {
  if (storedHash === null) {
    await (await library()).verify(await decoyHash(), password);
    return false;
  }
  return (await library()).verify(storedHash, password);
}

/** A password for generated accounts (the demo user): 20 characters of base64url, 120 bits. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}
