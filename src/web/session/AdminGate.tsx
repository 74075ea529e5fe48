import { useEffect, type ReactNode } from 'react';
import { adminToasts } from '../../contract/messages';
import { useAdminCheck } from '../api/session';
import { FullScreenLoader } from '../ui/FullScreenLoader';
import { toastOnce } from '../ui/toast';
import { useReplaceNavigate } from './navigation';

/** Admin session gate: checked on entry and every 3 minutes; anything but a valid admin goes to /adminlogin. */
export function AdminGate({ children }: { children: ReactNode }) {
  const check = useAdminCheck();
  const navigate = useReplaceNavigate();
  const allowed = check.data?.valid === true;
  const refused = check.isError || check.data?.valid === false;

  useEffect(() => {
    if (!refused) return;
    toastOnce('error', check.isError ? adminToasts.unauthorized : adminToasts.sessionExpired);
    navigate('/adminlogin');
  });

  if (!allowed) return <FullScreenLoader label="Checking your session…" />;
  return children;
}
