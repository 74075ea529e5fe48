import { AdminPage } from '../AdminPage';
import Page from '../videos/ManageVideosPage';

export default function ManageVideosRoute() {
  return (
    <AdminPage>
      <Page />
    </AdminPage>
  );
}
