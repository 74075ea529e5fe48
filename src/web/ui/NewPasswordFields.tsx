import { useState } from 'react';
import { validation } from '../../contract/messages';
import { isValidPassword } from '../../contract/password';
import { PasswordField } from './PasswordField';

/** Whether a new password and its confirmation can be sent: the contract's rule, and the same twice. */
export const newPasswordReady = (password: string, confirm: string) =>
  isValidPassword(password) && confirm === password;

/**
 * The state behind NewPasswordFields: the password, whether it can be sent (newPasswordReady),
 * `fields` to spread on NewPasswordFields, and `clear` to empty both.
 */
export function useNewPassword() {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  return {
    password,
    ready: newPasswordReady(password, confirm),
    fields: { password, confirm, onPassword: setPassword, onConfirm: setConfirm },
    clear: () => {
      setPassword('');
      setConfirm('');
    },
  };
}

/**
 * A new password and its confirmation (the student's reset, the admin's own change), labelled "New password": the rule shown
 * under the field until it is broken, then the reason; the confirmation's mismatch once typed.
 */
export function NewPasswordFields(props: {
  password: string;
  confirm: string;
  onPassword(value: string): void;
  onConfirm(value: string): void;
  confirmLabel: string;
}) {
  const { password, confirm } = props;
  const passwordError = password && !isValidPassword(password) ? validation.password : null;
  const confirmError = confirm && confirm !== password ? validation.passwordsDiffer : null;
  return (
    <>
      <PasswordField
        label="New password"
        autoComplete="new-password"
        value={password}
        onValue={props.onPassword}
        error={passwordError}
        description={
          passwordError
            ? undefined
            : 'At least 8 characters with upper and lower case, a number and one of @$!%*?&'
        }
      />
      <PasswordField
        label={props.confirmLabel}
        autoComplete="new-password"
        value={confirm}
        onValue={props.onConfirm}
        error={confirmError}
      />
    </>
  );
}
