import { AdminPage } from '../AdminPage';
import Page from '../access/CourseAccessPage';

export default function CourseAccessRoute() {
  return (
    <AdminPage>
      <Page />
    </AdminPage>
  );
}
