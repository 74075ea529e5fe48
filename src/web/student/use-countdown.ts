import { useCallback, useEffect, useState } from 'react';
import { OTP_RESEND_SECONDS } from '../../contract/constants';

/**
 * Seconds left until another code may be requested, counting down from 60 once a second and
 * measured against the clock, so a throttled background tab still shows the truth.
 */
export function useCountdown(from = OTP_RESEND_SECONDS) {
  const [deadline, setDeadline] = useState(() => Date.now() + from * 1000);
  const left = () => Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);

  useEffect(() => {
    const tick = () => setSeconds(Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [deadline]);

  const restart = useCallback((value = from) => setDeadline(Date.now() + value * 1000), [from]);
  return { seconds, restart };
}
