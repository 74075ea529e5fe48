import { Box } from '@mantine/core';
import { Outlet, useLocation } from 'react-router';
import { Footer } from '../ui/Footer';

/** SPEC.md section 2: the footer appears on every page except these. */
const WITHOUT_FOOTER = new Set(['/', '/adminlogin', '/adminsetup', '/reset-password']);

export function RootLayout() {
  const { pathname } = useLocation();
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box component="main" style={{ flex: 1 }}>
        <Outlet />
      </Box>
      {!WITHOUT_FOOTER.has(pathname) && <Footer />}
    </Box>
  );
}
