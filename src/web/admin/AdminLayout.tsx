import { Outlet } from 'react-router';
import { AdminGate } from '../session/AdminGate';
import { AdminShell } from './AdminShell';
import { FreshFactorPrompt } from './account/FreshFactorPrompt';

/**
 * Layout route of every admin screen: the session gate (SPEC.md section 4), then the back office
 * frame, and the "Confirm it's you" prompt sensitive actions may need.
 */
export default function AdminLayout() {
  return (
    <AdminGate>
      <AdminShell>
        <Outlet />
      </AdminShell>
      <FreshFactorPrompt />
    </AdminGate>
  );
}
