/** The command line's account commands: admins, instructors, students, unlocking, a lost second factor. */
import { readFile } from 'node:fs/promises';
import { STAFF_SETUP_LINK_HOURS } from '../../contract/constants';
import { AssignCoursesBody, NewInstructor } from '../../contract/instructors';
import { plural } from '../../contract/plural';
import { NewAdmin, NewStudent } from '../../contract/students';
import { unlockAccount } from '../accounts/account-budget';
import {
  assignInstructor,
  createInstructor,
  instructorByLogin,
  removeInstructor,
} from '../accounts/instructors';
import { initialPasswordMail } from '../accounts/mails';
import { commitStudentImport } from '../accounts/student-import';
import { createAdmin, createStudent, findUserByLogin, type CreatedUser } from '../accounts/users';
import { recordSecurityEvent } from '../audit/security-events';
import type { AppContext } from '../context';
import { HttpError, parseInput } from '../errors';
import { resetAdminFactor } from '../mfa/reset';
import { required, type Command } from './command';

/** `--courses ID,ID` as a list ('' for none). */
const courseList = (text: string) =>
  text
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);

/** Mails generated initial passwords; returns the addresses that could not be reached. */
async function mailInitialPasswords(ctx: AppContext, created: CreatedUser[]): Promise<string[]> {
  const failed: string[] = [];
  for (const student of created) {
    if (!student.generatedPassword) continue;
    try {
      await ctx.mailer.send(initialPasswordMail(ctx.config.productName, student, student.generatedPassword));
    } catch {
      failed.push(student.email);
    }
  }
  return failed;
}

export const ACCOUNT_COMMANDS: readonly Command[] = [
  {
    name: 'create-admin',
    help: 'Add an admin: --username U --email E [--name N] [--password P]',
    needs: 'runtime',
    async run({ ctx, values }) {
      const admin = await createAdmin(ctx.db, parseInput(NewAdmin, values));
      await recordSecurityEvent(ctx, ctx.clock.now(), {
        action: 'admin.created',
        userId: admin.id,
        details: { by: 'cli' },
      });
      console.log(`Created admin ${admin.username} <${admin.email}>.`);
      if (admin.generatedPassword) console.log(`Password (shown once): ${admin.generatedPassword}`);
      return 0;
    },
  },
  {
    name: 'create-instructor',
    help: 'Add an instructor teaching some courses, mailed a set-up link: --username U --email E [--name N] [--courses ID,ID]',
    needs: 'runtime',
    async run({ ctx, values }) {
      if (values.password)
        throw new HttpError(
          400,
          'Instructors choose their own password through the mailed set-up link: leave out --password.',
        );
      const input = parseInput(NewInstructor, { ...values, courseIds: courseList(values.courses ?? '') });
      const { created, mailed } = await createInstructor(ctx, input, 'cli');
      console.log(
        `Created instructor ${created.username} <${created.email}> teaching ${plural(input.courseIds.length, 'course')}.`,
      );
      if (mailed) {
        console.log(`A set-up link was mailed to ${created.email} (valid ${STAFF_SETUP_LINK_HOURS} hours).`);
        return 0;
      }
      console.error(
        `The set-up link could not be mailed to ${created.email}: check the mail settings, then run mfa:reset --username ${created.username}.`,
      );
      return 1;
    },
  },
  {
    name: 'assign-instructor',
    help: "Set the courses an instructor teaches (replaces them; --courses '' for none): --username U --courses ID,ID",
    needs: 'runtime',
    async run({ ctx, values, positionals }) {
      const name = values.username ?? positionals[0];
      if (!name || values.courses === undefined)
        throw new HttpError(
          400,
          'Name the instructor and the courses: assign-instructor --username U --courses ID,ID',
        );
      const { courseIds } = parseInput(AssignCoursesBody, { courseIds: courseList(values.courses) });
      const user = await instructorByLogin(ctx.db, name);
      await assignInstructor(ctx, user.id, courseIds, 'cli');
      console.log(`${user.username} now teaches ${plural(courseIds.length, 'course')}.`);
      return 0;
    },
  },
  {
    name: 'remove-instructor',
    help: "Delete an instructor's account (their sessions end): --username U",
    needs: 'runtime',
    async run({ ctx, values, positionals }) {
      const name = required(
        values.username ?? positionals[0],
        'Name the instructor: remove-instructor --username U',
      );
      const user = await instructorByLogin(ctx.db, name);
      await removeInstructor(ctx, user.id, 'cli');
      console.log(`Removed instructor ${user.username}: their account and sessions are gone.`);
      return 0;
    },
  },
  {
    name: 'create-student',
    help: 'Add a student: --rollno R --name N --email E [--username U] [--password P]',
    needs: 'runtime',
    async run({ ctx, values }) {
      const student = await createStudent(ctx.db, parseInput(NewStudent, values));
      console.log(`Created student ${student.rollno} (username ${student.username}).`);
      const failed = await mailInitialPasswords(ctx, [student]);
      if (student.generatedPassword) {
        console.log(
          failed.length
            ? `Could not mail the initial password to ${student.email}.`
            : `Initial password mailed to ${student.email}.`,
        );
      }
      return failed.length ? 1 : 0;
    },
  },
  {
    name: 'import-students',
    help: 'Add students from FILE.csv (header rollno,name,email[,username][,password])',
    needs: 'runtime',
    async run({ ctx, positionals }) {
      const csv = await readFile(
        required(positionals[0], 'Name the CSV file: import-students FILE.csv'),
        'utf8',
      );
      const created = await commitStudentImport(ctx.db, csv);
      console.log(`Imported ${plural(created.length, 'student')}.`);
      const failed = await mailInitialPasswords(ctx, created);
      if (failed.length) console.log(`Could not mail initial passwords to: ${failed.join(', ')}`);
      return failed.length ? 1 : 0;
    },
  },
  {
    name: 'unlock',
    help: "End USER's sign-in waits and let them use one-time codes again after the day's failure budget was spent: USER",
    needs: 'runtime',
    async run({ ctx, positionals }) {
      const name = required(positionals[0], 'Name the account: unlock USER');
      const user = await findUserByLogin(ctx.db, name);
      if (!user) throw new HttpError(404, `No account is named ${name}.`);
      await unlockAccount(ctx.db, user.id);
      await recordSecurityEvent(ctx, ctx.clock.now(), { action: 'account.unlocked', userId: user.id });
      console.log(`Unlocked ${user.username}: sign-in and one-time codes count from zero again.`);
      return 0;
    },
  },
  {
    name: 'mfa:reset',
    help: "Remove an admin's second factor and recovery codes, end their sessions, mail them a set-up link (a lost phone): --username U",
    needs: 'runtime',
    async run({ ctx, values, positionals }) {
      const name = required(values.username ?? positionals[0], 'Name the admin: mfa:reset --username U');
      const user = await findUserByLogin(ctx.db, name);
      // Instructors hold the same second factor.
      if (!user || user.role === 'student') throw new HttpError(404, `No admin is named ${name}.`);
      const { had, mailed } = await resetAdminFactor(ctx, user, 'cli');
      console.log(
        had
          ? `Reset the second factor of ${user.username}: their sessions ended.`
          : `${user.username} had no second factor; their sessions ended.`,
      );
      if (mailed) {
        console.log(
          `A set-up link was mailed to ${user.email} (valid ${STAFF_SETUP_LINK_HOURS} hours): it sets a new password and the new factor.`,
        );
        return 0;
      }
      console.error(
        `The set-up link could not be mailed to ${user.email}: check the mail settings, then run mfa:reset again.`,
      );
      return 1;
    },
  },
];
