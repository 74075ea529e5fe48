import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { useServerTime } from '../api/session';
import { useWatchingLive } from '../player/live-watch';
import { FullScreenLoader } from '../ui/FullScreenLoader';
import { MaintenanceScreen } from './MaintenanceScreen';

/**
 * Opening hours decide whether the student pages show (rechecked every 60 s); an error counts as
 * closed. A page playing a live class stays at closing time until the class's stream ends.
 */
export function TimeGate({ children }: { children: ReactNode }) {
  const time = useServerTime();
  const watchingLive = useWatchingLive();
  if (time.isPending) return <FullScreenLoader label="Checking availability…" />;
  if ((time.isError || !time.data.open) && !watchingLive) {
    return (
      <MaintenanceScreen
        opensAt={time.data?.opensAt}
        timeZone={time.data?.timeZone}
        hours={time.data?.hours}
      />
    );
  }
  return children;
}

/** Layout route of the student pages: each shows only during opening hours. */
export default function TimeGateLayout() {
  return (
    <TimeGate>
      <Outlet />
    </TimeGate>
  );
}
