import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, like } from 'drizzle-orm';
import { TestClient } from '../../test/support/http-client';
import { openDatabase } from './db/client';
import { auditEvents, courses } from './db/schema';
import { bucketCorsOrigins } from './storage/bucket-cors';
import { describeWhenReady } from '../../test/support/preconditions';
import { runCli, startServerProcess } from '../../test/support/processes';
import { createTestBucket, testStores, type TestBucket } from '../../test/support/stores';
import { TestSmtpServer } from '../../test/support/smtp';
import { seedMigratedPglite } from '../../test/support/school-image';
import { setupLinkToken } from '../../test/support/setup-link';

/**
 * Each test starts the CLI as a fresh process (Node, tsx compiling the server's modules, the
 * embedded database opening and migrating) once or twice: ~7 s on a quiet machine, past the
 * integration project's 30 s on a loaded one.
 */
const CLI_PROCESS_TIMEOUT = { timeout: 90_000 };

describe('admin command line (embedded database)', CLI_PROCESS_TIMEOUT, () => {
  let dataDir: string;
  let smtp: TestSmtpServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-cli-'));
    // The commands are the subject, not a first start: the school's database is already migrated.
    await seedMigratedPglite(dataDir);
    smtp = await new TestSmtpServer().start();
    env = { DATA_DIR: dataDir, SMTP_URL: smtp.url, SEED_DEMO: 'false', OPEN_HOURS: 'always' };
  });
  afterAll(async () => {
    await smtp?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates an admin and prints a generated password once; a taken username is refused', async () => {
    const created = await runCli(['create-admin', '--username', 'ops', '--email', 'ops@example.test'], env);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('Created admin ops <ops@example.test>.');
    expect(created.stdout).toMatch(/Password \(shown once\): \S{14}/);

    const again = await runCli(['create-admin', '--username', 'OPS', '--email', 'other@example.test'], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('A user with this username already exists.');
  });

  it('creates an instructor teaching a course, assigns and removes them, audited; the sign-in wants their second factor', async () => {
    // A course to teach (no command creates one): written while no process holds the database.
    const database = await openDatabase({ url: undefined, dataDir, migrate: true });
    let courseId: string;
    try {
      const [course] = await database.db
        .insert(courses)
        .values({
          batch: 1,
          courseCode: 'CLI-101',
          name: 'Command Lines',
          description: 'A course.',
          startDate: '2026-01-01',
          endDate: '2026-12-31',
        })
        .returning({ id: courses.id });
      courseId = course!.id;
    } finally {
      await database.close();
    }

    const created = await runCli(
      ['create-instructor', '--username', 'tutor', '--email', 'tutor@example.test', '--courses', courseId],
      env,
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('Created instructor tutor <tutor@example.test> teaching 1 course.');
    expect(created.stdout).not.toContain('Password (shown once)');
    expect(created.stdout).toContain('A set-up link was mailed to tutor@example.test (valid 48 hours).');
    const token = setupLinkToken((await smtp.waitFor('tutor@example.test')).text);

    // Refused, each with its reason: a course that does not exist, a password chosen for them.
    for (const [name, option, value, reason] of [
      ['tutor2', '--courses', '00000000-0000-4000-8000-000000000000', 'One of the courses does not exist.'],
      [
        'tutor3',
        '--password',
        'Tutor@12345',
        'Instructors choose their own password through the mailed set-up link',
      ],
    ] as const) {
      const refused = await runCli(
        ['create-instructor', '--username', name, '--email', `${name}@example.test`, option, value],
        env,
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(reason);
    }

    const none = await runCli(['assign-instructor', '--username', 'tutor', '--courses', ''], env);
    expect(none.stdout).toContain('tutor now teaches 0 courses.');
    const again = await runCli(
      ['assign-instructor', '--username', 'tutor', '--courses', `${courseId},${courseId}`],
      env,
    );
    expect(again.stdout).toContain('tutor now teaches 1 course.');
    const notInstructor = await runCli(['assign-instructor', '--username', 'nobody', '--courses', ''], env);
    expect(notInstructor.stderr).toContain('No instructor is named nobody.');

    // The link sets their password; they sign in where admins do, and must set up the same second
    // factor (ADMIN_MFA=required).
    const server = await startServerProcess(env);
    try {
      const client = new TestClient(server.url);
      const setup = await client.post('/api/admin/setup', { token, newPassword: 'Tutor@12345' });
      expect(setup.body.next).toBe('enrol');
      const signIn = await client.post('/api/admin/login', { username: 'tutor', password: 'Tutor@12345' });
      expect(signIn.status).toBe(200);
      expect(signIn.body.next).toBe('enrol');
      const student = await client.post('/api/signin', { username: 'tutor', password: 'Tutor@12345' });
      expect(student.status).toBe(403);
    } finally {
      expect(await server.stop()).toBe(0);
    }

    const removed = await runCli(['remove-instructor', '--username', 'tutor'], env);
    expect(removed.stdout).toContain('Removed instructor tutor');
    const audit = await openDatabase({ url: undefined, dataDir, migrate: false });
    try {
      const rows = await audit.db
        .select({ action: auditEvents.action, details: auditEvents.details })
        .from(auditEvents)
        .where(like(auditEvents.action, 'instructor.%'))
        .orderBy(asc(auditEvents.at), asc(auditEvents.id));
      expect(rows.map((r) => r.action)).toEqual([
        'instructor.created',
        'instructor.assigned',
        'instructor.assigned',
        'instructor.removed',
      ]);
      expect(rows[0]!.details).toMatchObject({ by: 'cli', courseIds: [courseId] });
      expect(rows[3]!.details).toMatchObject({ by: 'cli', username: 'tutor' });
    } finally {
      await audit.close();
    }
  });

  it('rejects a CSV with a bad row whole, naming the line, then imports a good one', async () => {
    const bad = path.join(dataDir, 'bad.csv');
    await writeFile(
      bad,
      'rollno,name,email\nBC-01,Asha Rao,asha@example.test\nBC-02,,not-an-email\nBC-01,Dup,dup@example.test\n',
    );
    const refused = await runCli(['import-students', bad], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Nothing was imported.');
    expect(refused.stderr).toMatch(/Line 3: .*Name is required.*valid e-mail/);
    expect(refused.stderr).toMatch(/Line 4: roll number repeats line 2/);

    const good = path.join(dataDir, 'good.csv');
    await writeFile(
      good,
      'rollno,name,email,username\nBC-01,Asha Rao,asha@example.test,asha\nBC-02,Ravi Kumar,ravi@example.test,\n',
    );
    const imported = await runCli(['import-students', good], env);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain('Imported 2 students.');
    const mail = await smtp.waitFor('ravi@example.test');
    expect(mail.text).toContain('Username: bc-02');
    expect(mail.text).toMatch(/Initial password: \S+/);

    // The bad file wrote nothing: importing the same roll number again is a conflict only now.
    const repeat = await runCli(['import-students', good], env);
    expect(repeat.stderr).toMatch(/Line 2: roll number already belongs to an account/);
  });

  it('creates a student whose mailed password works for the first sign-in', async () => {
    const before = smtp.mails.length;
    const res = await runCli(
      ['create-student', '--rollno', 'BC-07', '--name', 'Meera N', '--email', 'meera@example.test'],
      env,
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Initial password mailed to meera@example.test.');
    const mail = await smtp.waitFor('meera@example.test', before);
    const password = mail.text.match(/Initial password: (\S+)/)![1]!;

    const server = await startServerProcess(env);
    try {
      const client = new TestClient(server.url);
      const signIn = await client.post('/api/signin', { username: 'bc-07', password });
      expect(signIn.status).toBe(200);
      expect(signIn.body.message).toContain('First Sign-in');

      // While the server holds the embedded database, the CLI refuses and changes nothing.
      const blocked = await runCli(
        ['create-admin', '--username', 'late', '--email', 'late@example.test'],
        env,
      );
      expect(blocked.code).toBe(2);
      expect(blocked.stderr).toMatch(/in use by process \d+ .*Nothing was changed\./);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const after = await runCli(['create-admin', '--username', 'late', '--email', 'late@example.test'], env);
    expect(after.code).toBe(0);
  });
});

describeWhenReady(
  'media:cors beside a running server (embedded database)',
  testStores().includes('s3') ? undefined : 'S3_ENDPOINT is not set (start ../shared/tools/s3-server)',
  () => {
    const SITE = 'https://lectern.school.test';
    let dataDir: string;
    let bucket: TestBucket;
    let env: Record<string, string>;
    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-cors-'));
      bucket = await createTestBucket();
      env = {
        ...bucket.env,
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        OPEN_HOURS: 'always',
        PUBLIC_URL: SITE,
        SEGMENT_DELIVERY: 's3',
      };
    }, 60_000);
    afterAll(async () => {
      await bucket?.drop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it(
      "sets the bucket's CORS to PUBLIC_URL while the server holds the database, or to the --origin given",
      CLI_PROCESS_TIMEOUT,
      async () => {
        const server = await startServerProcess(env);
        try {
          const defaulted = await runCli(['media:cors'], env);
          expect(defaulted.stderr).toBe('');
          expect(defaulted.code).toBe(0);
          expect(defaulted.stdout).toContain(`GET and HEAD allowed from ${SITE}.`);
          expect(await bucketCorsOrigins(bucket.client, bucket.name)).toEqual([SITE]);

          const named = await runCli(['media:cors', '--origin', 'https://a.test,https://b.test:8443'], env);
          expect(named.code).toBe(0);
          expect(await bucketCorsOrigins(bucket.client, bucket.name)).toEqual([
            'https://a.test',
            'https://b.test:8443',
          ]);
        } finally {
          expect(await server.stop()).toBe(0);
        }
      },
    );
  },
);

describe('npm run cli on a checkout that was never built', CLI_PROCESS_TIMEOUT, () => {
  const run = promisify(execFile);
  let clone: string;

  beforeAll(async () => {
    // The files a fresh clone has (tracked, or new and not ignored): no dist/, no data/.
    clone = await mkdtemp(path.join(tmpdir(), 'lectern-clone-'));
    const { stdout } = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z']);
    for (const file of stdout.split('\0').filter((f) => f && existsSync(f)))
      await cp(file, path.join(clone, file), { recursive: true });
    await symlink(path.resolve('node_modules'), path.join(clone, 'node_modules'), 'dir');
  }, 60_000);
  afterAll(async () => {
    if (clone) await rm(clone, { recursive: true, force: true });
  });

  const npmCli = (args: string[]) =>
    run('npm', ['run', '--silent', 'cli', '--', ...args], {
      cwd: clone,
      env: { ...process.env, DATA_DIR: path.join(clone, 'data'), LOG_LEVEL: 'warn', SEED_DEMO: 'false' },
    });

  it('lists every command with one line each, at once', async () => {
    expect(existsSync(path.join(clone, 'dist'))).toBe(false);
    const { stdout } = await npmCli(['--help']);
    const commands = stdout.split('\n').filter((line) => /^ {2}[a-z:-]+ {2,}\S/.test(line));
    expect(commands.map((line) => line.trim().split(/\s+/)[0])).toEqual([
      'create-admin',
      'create-instructor',
      'assign-instructor',
      'remove-instructor',
      'create-student',
      'import-students',
      'unlock',
      'mfa:reset',
      'media:migrate',
      'media:rekey',
      'media:rewrap-keys',
      'media:mark',
      'search:index',
      'media:cors',
      'nginx:config',
      'live:create',
      'doctor',
      'migrate:post-deploy',
      'backup',
      'backup:list',
      'backup:verify',
      'restore',
      'trace:file',
      'certificates:rotate-key',
      'help',
    ]);
  });

  it('runs a real command against the embedded database', async () => {
    const { stdout } = await npmCli(['create-admin', '--username', 'ops', '--email', 'ops@example.test']);
    expect(stdout).toContain('Created admin ops <ops@example.test>.');
    expect(stdout).toMatch(/Password \(shown once\): \S{14}/);
    expect(existsSync(path.join(clone, 'dist'))).toBe(false);

    // A lost phone: the admin's factor goes (they had none yet: said so), and the audit log keeps it.
    const reset = await npmCli(['mfa:reset', '--username', 'ops']);
    expect(reset.stdout).toContain('ops had no second factor; their sessions ended.');
    expect(reset.stdout).toContain('A set-up link was mailed to ops@example.test (valid 48 hours)');
    const unknown = await npmCli(['mfa:reset', '--username', 'nobody']).catch(
      (error: { stderr: string }) => error,
    );
    expect((unknown as { stderr: string }).stderr).toContain('No admin is named nobody.');
  });
});
