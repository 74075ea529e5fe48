import { AdminPage } from '../AdminPage';
import Page from '../videos/EditVideoDetailsPage';

export default function EditVideoDetailsRoute() {
  return (
    <AdminPage>
      <Page />
    </AdminPage>
  );
}
