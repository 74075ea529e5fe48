import { AdminPage } from '../AdminPage';
import Page from '../courses/CreateCoursePage';

export default function CreateCourseRoute() {
  return (
    <AdminPage>
      <Page />
    </AdminPage>
  );
}
