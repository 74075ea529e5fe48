import { Avatar, UnstyledButton } from '@mantine/core';
import { IconUser } from '@tabler/icons-react';
import { forwardRef, type ComponentPropsWithoutRef } from 'react';

/** The round avatar button that opens the account menu (drawn before the menu's code has loaded too). */
export const AccountButton = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<'button'>>(
  function AccountButton(props, ref) {
    return (
      <UnstyledButton ref={ref} aria-label="Account menu" style={{ borderRadius: '50%' }} {...props}>
        <Avatar color="red" radius="xl" size={36}>
          <IconUser size={20} />
        </Avatar>
      </UnstyledButton>
    );
  },
);
