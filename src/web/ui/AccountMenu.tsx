import { Menu } from '@mantine/core';
import { IconLogout, IconUser } from '@tabler/icons-react';
import { AccountButton } from './AccountButton';

export interface AccountMenuProps {
  onLogout(): void;
  loggingOut: boolean;
  onProfile?(): void;
  /** Open at once: the button was pressed before this menu's code had arrived. */
  initiallyOpened?: boolean;
}

/** The avatar menu with Profile and Logout (its own chunk: the menu's code is not needed to draw a page). */
export default function AccountMenu({ onLogout, loggingOut, onProfile, initiallyOpened }: AccountMenuProps) {
  return (
    <Menu position="bottom-end" shadow="md" width={180} withinPortal defaultOpened={initiallyOpened}>
      <Menu.Target>
        <AccountButton />
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
  );
}
