import { AdminPage } from '../AdminPage';
import Page from '../courses/AdminCoursePage';

export default function CourseRoute() {
  return (
    <AdminPage>
      <Page />
    </AdminPage>
  );
}
