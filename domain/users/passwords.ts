// Passwords (docs/rules/security.md#passwords): at least 12 characters, at most 72 bytes in UTF-8,
// hashed with bcrypt (bcryptjs: no native build step, same format as bcrypt). bcrypt reads only the
// first 72 bytes of a password, so a longer one is refused rather than cut short: two passwords
// that share their first 72 bytes would otherwise both open the account.
import bcrypt from 'bcryptjs';
import { errors } from '../errors';

export const PASSWORD_MIN_CHARACTERS = 12;
export const PASSWORD_MAX_BYTES = 72;

/** Why `password` cannot be set, or undefined. Characters are counted as Unicode code points. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < PASSWORD_MIN_CHARACTERS) return `must be at least ${PASSWORD_MIN_CHARACTERS} characters`;
  if (Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES) return `must be at most ${PASSWORD_MAX_BYTES} bytes in UTF-8 (fewer characters outside A-Z)`;
  return undefined;
}

/** 400 VALIDATION_ERROR naming `field` when the password breaks the rules. */
export function assertAcceptablePassword(password: string, field = 'password'): void {
  const problem = passwordProblem(password);
  if (problem) throw errors.validation('Request validation failed', [{ field, message: problem }]);
}

export function hashPassword(password: string, rounds: number): Promise<string> {
  if (bcrypt.truncates(password))
    throw new Error(`a password over ${PASSWORD_MAX_BYTES} bytes reached hashPassword; refuse it first (assertAcceptablePassword)`);
  return bcrypt.hash(password, rounds);
}

/** False for a password over 72 bytes without comparing: bcrypt would compare its first 72 bytes only. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (bcrypt.truncates(password)) {
    await bcrypt.compare(password.slice(0, 16), hash); // as long as a real comparison, so the answer's time tells nothing
    return false;
  }
  return bcrypt.compare(password, hash);
}
