import type { ReactNode } from 'react';
import { AdminGate } from '../app/AdminGate';
import { AdminShell } from './AdminShell';

/** An admin screen: the session gate (SPEC.md section 4), then the back office frame. */
export function AdminPage({ children }: { children: ReactNode }) {
  return (
    <AdminGate>
      <AdminShell>{children}</AdminShell>
    </AdminGate>
  );
}
