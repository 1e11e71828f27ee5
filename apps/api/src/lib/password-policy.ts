import { z } from 'zod';
import type { dictionary as Dictionary } from '@zxcvbn-ts/language-common';
import { BLANK } from '@pos/domain/wire-fields';
import { lazyModule } from './lazy-module.ts';

/**
 * Rules for a new or changed password (issue 21): at least 8 characters, at most 128, and not one
 * of the ~49,000 most common passwords of the maintained zxcvbn-ts common list (compared
 * lower-cased). Existing passwords (the demo seed's admin/admin) are not re-checked at sign-in.
 */
export const PASSWORD_MIN = 8;
export const TOO_SHORT = `This value is too short. It should have ${PASSWORD_MIN} characters or more.`;
export const TOO_COMMON = 'This password is too common; choose another one.';

/** The list (all of zxcvbn's dictionaries, several MB) is read when a password is first set (lib/lazy-module.ts). */
const zxcvbnCommon = lazyModule<{ dictionary: typeof Dictionary }>('@zxcvbn-ts/language-common');
let common: Set<string> | null = null;

export const isCommonPassword = (pw: string) =>
  (common ??= new Set((zxcvbnCommon().dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()))).has(pw.toLowerCase());

/** The zod field of a new password. */
export const newPassword = () => z.string({ error: BLANK })
  .min(1, BLANK)
  .min(PASSWORD_MIN, TOO_SHORT)
  .max(128, 'This value is too long. It should have 128 characters or less.')
  .refine((pw) => !isCommonPassword(pw), TOO_COMMON);
