import { z } from 'zod';
import { dictionary } from '@zxcvbn-ts/language-common';
import { BLANK } from '@pos/domain/wire-fields';

/**
 * Rules for a new or changed password (issue 21): at least 8 characters, at most 128, and not one
 * of the ~49,000 most common passwords of the maintained zxcvbn-ts common list (compared
 * lower-cased). Existing passwords (the demo seed's admin/admin) are not re-checked at sign-in.
 */
export const PASSWORD_MIN = 8;
export const TOO_SHORT = `This value is too short. It should have ${PASSWORD_MIN} characters or more.`;
export const TOO_COMMON = 'This password is too common; choose another one.';

const common = new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));

export const isCommonPassword = (pw: string) => common.has(pw.toLowerCase());

/** The zod field of a new password. */
export const newPassword = () => z.string({ error: BLANK })
  .min(1, BLANK)
  .min(PASSWORD_MIN, TOO_SHORT)
  .max(128, 'This value is too long. It should have 128 characters or less.')
  .refine((pw) => !isCommonPassword(pw), TOO_COMMON);
