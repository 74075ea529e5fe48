import { AdminPage } from '../AdminPage';
import Page from '../dashboard/AdminDashboardPage';

export default function DashboardRoute() {
  return (
    <AdminPage>
      <Page />
    </AdminPage>
  );
}
