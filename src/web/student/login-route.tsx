import { TimeGate } from '../app/TimeGate';
import LoginPage from './LoginPage';

export default function LoginRoute() {
  return (
    <TimeGate>
      <LoginPage />
    </TimeGate>
  );
}
