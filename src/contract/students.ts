import { z } from 'zod';
import { NewPassword } from './auth';

export const Rollno = z
  .string()
  .trim()
  .min(1, 'Roll number is required.')
  .max(40, 'Roll number is too long.')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, 'Roll number may use letters, digits and . _ / - only.');

export const Username = z
  .string()
  .trim()
  .min(3, 'Username must be at least 3 characters.')
  .max(40, 'Username is too long.')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'Username may use letters, digits and . _ - only.');

export const PersonName = z.string().trim().min(1, 'Name is required.').max(120, 'Name is too long.');
export const Email = z.string().trim().max(254).pipe(z.email('Please enter a valid e-mail address.'));

/** A student as the server's answers name them beside their id (dropdowns, lists, analytics). */
export const studentNameFields = { rollno: z.string(), name: z.string(), email: z.string() };

/** A student as an admin (form, CSV row or CLI) describes them. */
export const NewStudent = z.object({
  rollno: Rollno,
  name: PersonName,
  email: Email,
  username: Username.optional(),
  password: NewPassword.optional(),
});
export type NewStudent = z.infer<typeof NewStudent>;

export const NewAdmin = z.object({
  username: Username,
  email: Email,
  name: PersonName.optional(),
  password: NewPassword.optional(),
});
export type NewAdmin = z.infer<typeof NewAdmin>;

/** Student usernames default to the roll number, made safe for sign-in. */
export function defaultUsername(rollno: string): string {
  return rollno
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '-');
}
