import { StudentGate } from '../app/StudentGate';
import { TimeGate } from '../app/TimeGate';
import CoursePage from './CoursePage';
import { StudentLayout } from './StudentLayout';

export default function CourseRoute() {
  return (
    <TimeGate>
      <StudentGate>
        <StudentLayout>
          <CoursePage />
        </StudentLayout>
      </StudentGate>
    </TimeGate>
  );
}
