import { AdminPage } from '../AdminPage';
import Page from '../videos/UploadVideoPage';

export default function UploadVideoRoute() {
  return (
    <AdminPage>
      <Page />
    </AdminPage>
  );
}
