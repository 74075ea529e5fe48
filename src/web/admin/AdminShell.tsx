import {
  ActionIcon,
  Badge,
  Box,
  Burger,
  Button,
  Container,
  Divider,
  Drawer,
  Group,
  Menu,
  NavLink,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconLogout, IconUserCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { productName } from '../ui/product';
import { Logo } from '../ui/Logo';
import {
  accountLink,
  adminHome,
  analyticsLink,
  backupsLink,
  certificatesLink,
  passkeysLink,
  questionsLink,
  courseLinks,
  instructorsLink,
  linksFor,
  studentsLink,
  traceLink,
  videoLinks,
  type AdminLink,
  type StaffRole,
} from './admin-links';
import { useAdminLogout } from './use-admin-logout';
import { useAdminCheck } from '../api/session';
import { TopBar } from '../ui/TopBar';

function NavMenu({ label, links, active }: { label: string; links: AdminLink[]; active: string }) {
  if (links.length === 0) return null;
  const current = links.some((l) => l.to === active);
  return (
    <Menu position="bottom-start" shadow="md" width={220}>
      <Menu.Target>
        <Button
          variant={current ? 'light' : 'subtle'}
          color={current ? 'red' : 'dark'}
          px="sm"
          rightSection={<IconChevronDown size={14} aria-hidden="true" />}
        >
          {label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {links.map((link) => (
          <Menu.Item
            key={link.to}
            component={Link}
            to={link.to}
            replace
            aria-current={link.to === active ? 'page' : undefined}
          >
            {link.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function TopLink({
  link,
  active,
  label = link.label,
  role,
}: {
  link: AdminLink;
  active: string;
  label?: string;
  role: StaffRole | undefined;
}) {
  if (linksFor(role, [link]).length === 0) return null;
  const current = link.to === active;
  return (
    <Button
      component={Link}
      to={link.to}
      replace
      variant={current ? 'light' : 'subtle'}
      color={current ? 'red' : 'dark'}
      px="sm"
      aria-current={current ? 'page' : undefined}
    >
      {label}
    </Button>
  );
}

/** Every admin screen's frame: logo to the dashboard, the screens by area, logout; a drawer on phones. */
export function AdminShell({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const logout = useAdminLogout();
  const [drawer, { toggle, close }] = useDisclosure(false);
  // An instructor sees only the screens they may use (admin-links.ts).
  const role = useAdminCheck().data?.role;
  const staffLabel = role === 'instructor' ? 'Instructor' : 'Admin';
  const logoutButton = (ml?: string) => (
    <Button
      variant="default"
      ml={ml}
      leftSection={<IconLogout size={16} aria-hidden="true" />}
      onClick={() => logout.mutate()}
      disabled={logout.isPending}
    >
      {logout.isPending ? 'Logging out…' : 'Logout'}
    </Button>
  );

  return (
    <>
      <TopBar>
        <Group gap="xs" wrap="nowrap">
          <UnstyledButton
            component={Link}
            to={adminHome.to}
            replace
            aria-label={`${productName()} admin: go to the dashboard`}
          >
            <Logo />
          </UnstyledButton>
          <Badge color="dark" variant="light" size="sm">
            {staffLabel}
          </Badge>
        </Group>
        <Group gap={4} component="nav" aria-label="Admin" visibleFrom="md" wrap="nowrap" data-role={role}>
          <TopLink link={adminHome} active={pathname} role={role} />
          {/* Instructors sit in the Courses menu: they are assigned courses, and the top bar is full at 1280 px. */}
          <NavMenu
            label="Courses"
            links={linksFor(role, [...courseLinks, instructorsLink, certificatesLink])}
            active={pathname}
          />
          <NavMenu label="Videos" links={linksFor(role, videoLinks)} active={pathname} />
          <TopLink link={studentsLink} active={pathname} label="Students" role={role} />
          <TopLink
            link={analyticsLink}
            active={pathname.startsWith(analyticsLink.to) ? analyticsLink.to : pathname}
            role={role}
          />
          <TopLink link={questionsLink} active={pathname} role={role} />
          <TopLink link={traceLink} active={pathname} label="Trace" role={role} />
          <TopLink link={backupsLink} active={pathname} role={role} />
          {/* Passkeys live on the account page (the drawer lists them too): the top bar is full at 1280 px. */}
          <ActionIcon
            component={Link}
            to={accountLink.to}
            replace
            size="lg"
            variant={pathname === accountLink.to ? 'light' : 'subtle'}
            color={pathname === accountLink.to ? 'red' : 'dark'}
            aria-label={accountLink.label}
            title={accountLink.label}
            aria-current={pathname === accountLink.to ? 'page' : undefined}
          >
            <IconUserCircle size={22} aria-hidden="true" />
          </ActionIcon>
          {logoutButton('sm')}
        </Group>
        <Burger opened={drawer} onClick={toggle} hiddenFrom="md" aria-label="Open navigation" />
      </TopBar>
      <Drawer opened={drawer} onClose={close} title={staffLabel} position="right" size="xs" hiddenFrom="md">
        <Stack gap={2} component="nav" aria-label="Admin">
          {[
            [adminHome],
            courseLinks,
            videoLinks,
            [
              studentsLink,
              analyticsLink,
              questionsLink,
              traceLink,
              backupsLink,
              instructorsLink,
              certificatesLink,
            ],
            [passkeysLink, accountLink],
          ]
            .map((group) => linksFor(role, group))
            .filter((group) => group.length > 0)
            .map((group, g) =>
              group.map((link, i) => (
                <Box key={link.to}>
                  {g > 0 && i === 0 && <Divider my={6} />}
                  <NavLink
                    component={Link}
                    to={link.to}
                    replace
                    label={link.label}
                    active={link === analyticsLink ? pathname.startsWith(link.to) : link.to === pathname}
                    color="red"
                    onClick={close}
                  />
                </Box>
              )),
            )}
          <Divider my={6} />
          {logoutButton()}
          <Text size="xs" c="dimmed" ta="center" mt="xs">
            {productName()} back office
          </Text>
        </Stack>
      </Drawer>
      <Container size="xl" py="lg" px={{ base: 'sm', sm: 'md' }}>
        {children}
      </Container>
    </>
  );
}
