import { Container } from '@mantine/core';
import type { ReactNode } from 'react';
import { NavBar } from '../ui/NavBar';
import { useLogout } from './use-logout';

/** Navigation bar and page width shared by the dashboard and the course page. */
export function StudentLayout({ children }: { children: ReactNode }) {
  const logout = useLogout();
  return (
    <>
      <NavBar homeTo="/dashboard" onLogout={() => logout.mutate()} loggingOut={logout.isPending} />
      <Container size="xl" py="lg" px={{ base: 'sm', sm: 'md' }}>
        {children}
      </Container>
    </>
  );
}
