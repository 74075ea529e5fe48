import { StudentGate } from '../app/StudentGate';
import { TimeGate } from '../app/TimeGate';
import DashboardPage from './DashboardPage';
import { StudentLayout } from './StudentLayout';

export default function DashboardRoute() {
  return (
    <TimeGate>
      <StudentGate>
        <StudentLayout>
          <DashboardPage />
        </StudentLayout>
      </StudentGate>
    </TimeGate>
  );
}
