import { Outlet } from 'react-router';
import { StudentGate } from '../session/StudentGate';
import { StudentLayout } from './StudentLayout';

/** Layout route of the signed-in student pages: the session gate (SPEC.md section 4), then the navigation bar. */
export default function StudentShell() {
  return (
    <StudentGate>
      <StudentLayout>
        <Outlet />
      </StudentLayout>
    </StudentGate>
  );
}

/** Layout route of /reset-password: a first-login session, or none at all (forgot password), may stay. */
export function ResetShell() {
  return (
    <StudentGate mode="reset">
      <Outlet />
    </StudentGate>
  );
}
