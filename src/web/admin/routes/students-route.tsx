import { AdminPage } from '../AdminPage';
import Page from '../students/StudentsPage';

export default function StudentsRoute() {
  return (
    <AdminPage>
      <Page />
    </AdminPage>
  );
}
