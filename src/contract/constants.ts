/** Business constants of SPEC.md section 9, shared by server and web. */

export const OTP_LENGTH = 6;
export const OTP_RESEND_SECONDS = 60;
export const OTP_LIFETIME_MINUTES = 10;
export const OTP_MAX_WRONG_TRIES = 5;

export const PASSWORD_MIN_LENGTH = 8;
/** Longer inputs are refused before hashing, so a huge body cannot burn CPU in argon2. */
export const PASSWORD_MAX_LENGTH = 128;

export const SESSION_MAX_AGE_SECONDS = 86_400;
export const SESSION_COOKIE = 'token';
/** An admin session ends this long after sign-in, whatever its use (its idle limit is ADMIN_IDLE_MINUTES). */
export const ADMIN_SESSION_MAX_SECONDS = 12 * 3600;
/** The password is right, the second factor still to come (or to set up): this long to give it. */
export const MFA_PENDING_SECONDS = 10 * 60;
/** A staff member's set-up link (a new account, or after `mfa:reset`) works once within this long. */
export const STAFF_SETUP_LINK_HOURS = 48;
/** Sensitive admin actions want the second factor proven within this long (route table `freshFactor`). */
export const FRESH_FACTOR_SECONDS = 10 * 60;
/** Wrong second-factor codes per admin in SIGNIN_FAILURE_WINDOW_MS, counted before each check. */
export const MFA_FAILURES_PER_ACCOUNT = 10;
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;

export const SIGNIN_FAILURES_PER_ACCOUNT = 10;
export const SIGNIN_FAILURES_PER_IP = 100;
export const SIGNIN_FAILURE_WINDOW_MS = 15 * 60_000;
/**
 * The per-account budgets over a day (NIST SP 800-63B 5.2.2: at most 100 failures): past them
 * sign-in slows down (below) and one-time codes stop for the account, until the day passes or an
 * admin runs `npm run cli -- unlock USER`. The per-client limits above slow a guesser long before.
 */
export const ACCOUNT_FAILURE_BUDGET = 100;
export const ACCOUNT_BUDGET_WINDOW_MS = 24 * 60 * 60_000;
/**
 * Past its day's budget an account's sign-in waits, never locks (so a stranger cannot lock anyone
 * out): each attempt waits this long after the one before, doubled with every further failure, up
 * to SIGNIN_WAIT_MAX_MS. The right password (and second factor) still signs in after the wait.
 */
export const SIGNIN_WAIT_FIRST_MS = 5_000;
export const SIGNIN_WAIT_MAX_MS = 5 * 60_000;

export const SERVER_TIME_POLL_MS = 60_000;
export const STUDENT_SESSION_POLL_MS = 5 * 60_000;
export const ADMIN_SESSION_POLL_MS = 3 * 60_000;

export const UPLOAD_CHUNK_SIZE = 5_242_880;

export const PLAYER_CONTROLS_HIDE_MS = 3_000;
export const PLAYER_SEEK_STEP_S = 5;
export const PLAYER_SPEEDS = [0.5, 1, 1.5, 2] as const;

export const TOAST_AUTO_CLOSE_MS = 3_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
