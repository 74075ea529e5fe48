import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { adminToasts } from '../../../contract/messages';
import { adminApi } from '../../api/admin';
import { messageOf, reasonOf } from '../../api/client';
import { sessionKeys, useAdminCheck } from '../../api/session';
import { useReplaceNavigate } from '../../session/navigation';
import { productName } from '../../ui/product';
import { AuthCard, SignInCard } from '../../ui/SignInCard';
import { toast } from '../../ui/toast';
import { CodeStep } from './CodeStep';
import { EnrolStep } from './EnrolStep';
import { assertPasskey } from './passkey-flow';

type Step = 'password' | 'totp' | 'enrol';

/**
 * /adminlogin: the spec's fields first (no client rules; success is judged by the server's message
 * containing 'successful', SPEC.md section 5), then the second factor the server asks for: a code
 * (or a recovery code) or a passkey, or setting one up (the app or a passkey).
 */
export default function AdminLoginPage() {
  const navigate = useReplaceNavigate();
  const queryClient = useQueryClient();
  const session = useAdminCheck();
  const [step, setStep] = useState<Step>('password');
  /** The factors the admin holds, as the password's answer named them. */
  const [factors, setFactors] = useState<('totp' | 'passkey')[]>([]);

  // Already signed in as an admin: straight to the dashboard (a fresh answer only).
  useEffect(() => {
    if (session.isFetchedAfterMount && session.data?.valid) navigate('/admindashboard');
  }, [session.data, session.isFetchedAfterMount, navigate]);

  const signedIn = (message: string) => {
    toast.success(message);
    queryClient.setQueryData(sessionKeys.adminCheck, { valid: true });
    // Who signed in (an admin or an instructor, and their courses): the back office shows them what they may use.
    void queryClient.invalidateQueries({ queryKey: sessionKeys.adminCheck });
    navigate('/admindashboard');
  };

  const login = useMutation({
    mutationFn: adminApi.login,
    onSuccess: ({ message, next, factors: held }) => {
      if (next) {
        setFactors(held ?? ['totp']);
        setStep(next);
        return;
      }
      if (!message?.includes('successful')) {
        toast.error(message || adminToasts.loginFailed);
        return;
      }
      signedIn(message);
    },
    onError: (error) => toast.error(messageOf(error, adminToasts.loginFailed)),
  });

  const code = useMutation({
    mutationFn: adminApi.loginCode,
    onSuccess: ({ message }) => signedIn(message),
  });

  const passkey = useMutation({
    mutationFn: assertPasskey,
    onSuccess: ({ message }) => signedIn(message),
  });

  const back = () => {
    code.reset();
    passkey.reset();
    setStep('password');
  };

  if (step === 'password')
    return (
      <SignInCard
        title={`${productName()} admin`}
        subtitle="Sign in to manage courses, videos and students."
        pending={login.isPending}
        onSubmit={(credentials) => login.mutate(credentials)}
      />
    );

  return (
    <AuthCard
      width={460}
      title={step === 'totp' ? 'Two-step sign-in' : `${productName()} admin`}
      subtitle={
        step === 'totp'
          ? 'Your password was right. One more step.'
          : 'Your password was right. Protect the account.'
      }
      pending={code.isPending || passkey.isPending}
    >
      {step === 'totp' ? (
        <CodeStep
          pending={code.isPending}
          error={code.isError ? messageOf(code.error, 'That code is not right.') : undefined}
          onSubmit={(value) => code.mutate(value)}
          onBack={back}
          app={factors.includes('totp')}
          passkey={
            factors.includes('passkey')
              ? {
                  pending: passkey.isPending,
                  error: passkey.isError
                    ? (reasonOf(passkey.error) ?? 'That passkey was not accepted.')
                    : undefined,
                  onUse: () => passkey.mutate(),
                }
              : undefined
          }
        />
      ) : (
        <EnrolStep onDone={() => signedIn('Admin login successful')} onBack={back} />
      )}
    </AuthCard>
  );
}
