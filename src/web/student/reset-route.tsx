import { StudentGate } from '../app/StudentGate';
import { TimeGate } from '../app/TimeGate';
import ResetPasswordPage from './ResetPasswordPage';

export default function ResetRoute() {
  return (
    <TimeGate>
      <StudentGate mode="reset">
        <ResetPasswordPage />
      </StudentGate>
    </TimeGate>
  );
}
