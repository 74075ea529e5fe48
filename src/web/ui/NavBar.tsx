import { UnstyledButton } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { productName } from './product';
import { AccountButton } from './AccountButton';
import { useAfterPageSettles } from './after-load';
import { Logo } from './Logo';
import { TopBar } from './TopBar';

// The menu (and the popover code under it) loads once the page has settled, or when reached for.
const AccountMenu = lazy(() => import('./AccountMenu'));

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
  const [menuReady, loadMenu] = useAfterPageSettles();
  const [pressedEarly, setPressedEarly] = useState(false);
  // Until the menu's code is here, the same button: pointing at it or focusing it fetches the code,
  // pressing it opens the menu as soon as the code arrives.
  const placeholder = (
    <AccountButton
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={loadMenu}
      onFocus={loadMenu}
      onClick={() => {
        setPressedEarly(true);
        loadMenu();
      }}
    />
  );
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
      {menuReady ? (
        <Suspense fallback={placeholder}>
          <AccountMenu
            onLogout={onLogout}
            loggingOut={loggingOut}
            onProfile={onProfile}
            initiallyOpened={pressedEarly}
          />
        </Suspense>
      ) : (
        placeholder
      )}
    </TopBar>
  );
}
