import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { adminApi } from '../../api/admin';
import { ApiError } from '../../api/client';

type AssertionBody = Parameters<typeof adminApi.passkeyLogin>[0];
type RegistrationBody = Parameters<typeof adminApi.addPasskey>[0];

/**
 * The browser's part of a passkey ceremony (@simplewebauthn/browser): the server's options in, the
 * authenticator's signed answer back to the server. The prompt closed, timed out or refused is an
 * error whose message a person can read (the server's own refusals keep theirs).
 */
async function browserStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const name = (error as { name?: string }).name;
    if (name === 'NotAllowedError' || name === 'AbortError')
      throw new Error('The passkey prompt was closed or timed out. Please try again.', { cause: error });
    if (name === 'InvalidStateError')
      throw new Error('That passkey is already registered.', { cause: error });
    throw new Error('This browser could not use a passkey here.', { cause: error });
  }
}

/** Signs in (the second step) or proves the factor again (signed in) with one of the admin's passkeys. */
export async function assertPasskey() {
  const { options } = await adminApi.passkeyLoginOptions();
  const credential = await browserStep(() =>
    startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON }),
  );
  return adminApi.passkeyLogin({ credential: credential as unknown as AssertionBody['credential'] });
}

/** Makes a passkey on this device (or a security key) and adds it to the admin's account. */
export async function addPasskey(name: string) {
  const { options } = await adminApi.passkeyRegistrationOptions();
  const credential = await browserStep(() =>
    startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON }),
  );
  return adminApi.addPasskey({
    name,
    credential: credential as unknown as RegistrationBody['credential'],
  });
}
