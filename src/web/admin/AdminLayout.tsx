import { Outlet } from 'react-router';
import { AdminGate } from '../app/AdminGate';
import { AdminShell } from './AdminShell';

/** Layout route of every admin screen: the session gate (SPEC.md section 4), then the back office frame. */
export default function AdminLayout() {
  return (
    <AdminGate>
      <AdminShell>
        <Outlet />
      </AdminShell>
    </AdminGate>
  );
}
