import { AdminPage } from '../AdminPage';
import Page from '../courses/EditCourseDetailsPage';

export default function EditCourseDetailsRoute() {
  return (
    <AdminPage>
      <Page />
    </AdminPage>
  );
}
