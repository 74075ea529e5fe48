import { Avatar, Menu, UnstyledButton } from '@mantine/core';
import { IconLogout, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { productName } from '../app/product';
import { Logo } from './Logo';
import { TopBar } from './TopBar';

export interface NavBarProps {
  /** Where the logo leads (the audience's home). */
  homeTo: string;
  onLogout(): void;
  loggingOut?: boolean;
  /** The Profile entry; the spec shows it without an action. */
  onProfile?(): void;
}

/** The top bar of signed-in pages: logo and name to home, an avatar menu with Profile and Logout. */
export function NavBar({ homeTo, onLogout, loggingOut = false, onProfile }: NavBarProps) {
  return (
    <TopBar>
      <UnstyledButton
        component={Link}
        to={homeTo}
        replace
        aria-label={`${productName()}: go to your courses`}
      >
        <Logo />
      </UnstyledButton>
      <Menu position="bottom-end" shadow="md" width={180} withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label="Account menu" style={{ borderRadius: '50%' }}>
            <Avatar color="red" radius="xl" size={36}>
              <IconUser size={20} />
            </Avatar>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconUser size={16} />} onClick={onProfile}>
            Profile
          </Menu.Item>
          <Menu.Item
            color="red"
            leftSection={<IconLogout size={16} />}
            onClick={onLogout}
            disabled={loggingOut}
          >
            {loggingOut ? 'Logging out…' : 'Logout'}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </TopBar>
  );
}
