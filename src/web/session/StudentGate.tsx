import { useEffect, useRef, type ReactNode } from 'react';
import { studentToasts } from '../../contract/messages';
import { useAuthCheck } from '../api/session';
import { FullScreenLoader } from '../ui/FullScreenLoader';
import { toastOnce } from '../ui/toast';
import { useReplaceNavigate } from './navigation';

type Verdict = 'checking' | 'allowed' | 'redirecting';

/**
 * Student session gate (SPEC.md section 4), rechecked every 5 minutes. `mode="reset"` is the reset
 * page's variant: a first-login session, or none at all (forgot password), may stay.
 */
export function StudentGate({
  children,
  mode = 'student',
}: {
  children: ReactNode;
  mode?: 'student' | 'reset';
}) {
  const check = useAuthCheck({ reusePrefetched: true });
  const navigate = useReplaceNavigate();
  const wasValid = useRef(false);

  let verdict: Verdict = 'checking';
  let target: { to: string; message: string; kind: 'error' | 'info' } | undefined;
  if (check.isError) {
    target = { to: '/', message: studentToasts.unauthorized, kind: 'error' };
  } else if (check.data) {
    const { valid, role, firstlogin } = check.data;
    if (!valid) {
      if (mode !== 'reset') {
        target = {
          to: '/',
          message: wasValid.current ? studentToasts.sessionExpired : studentToasts.unauthorized,
          kind: 'error',
        };
      }
    } else if (role === 'admin' || role === 'instructor') {
      target = { to: '/admindashboard', message: studentToasts.adminOnStudentPage, kind: 'error' };
    } else if (firstlogin && mode !== 'reset') {
      target = { to: '/reset-password', message: studentToasts.resetFirst, kind: 'info' };
    } else if (!firstlogin && mode === 'reset') {
      target = { to: '/dashboard', message: '', kind: 'info' };
    }
    verdict = target ? 'redirecting' : 'allowed';
  }

  useEffect(() => {
    if (verdict === 'allowed' && check.data?.valid) wasValid.current = true;
    if (!target) return;
    if (target.message) toastOnce(target.kind, target.message);
    navigate(target.to);
  });

  if (verdict !== 'allowed') return <FullScreenLoader label="Checking your session…" />;
  return children;
}
