import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants';

/** SPEC.md section 5: lower, upper, digit and one of @$!%*?&; nothing but letters, digits and those. */
export const PASSWORD_PATTERN = new RegExp(
  `^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)(?=.*[@$!%*?&])[A-Za-z\\d@$!%*?&]{${PASSWORD_MIN_LENGTH},${PASSWORD_MAX_LENGTH}}$`,
);

export function isValidPassword(password: string): boolean {
  return PASSWORD_PATTERN.test(password);
}
