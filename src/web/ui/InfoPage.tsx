import { Anchor, Container, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { productName } from './product';

function Page({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Anchor component={Link} to="/" replace size="sm">
          ← Back to {productName()}
        </Anchor>
        <Title order={1}>{title}</Title>
        {children}
      </Stack>
    </Container>
  );
}

export function PolicyPage() {
  const name = productName();
  return (
    <Page title="Privacy policy">
      <Text>
        {name} keeps only what it needs to run your courses: your name, roll number, e-mail address, username,
        the courses and videos you may watch, and where you are in each video.
      </Text>
      <List spacing="xs">
        <List.Item>
          Passwords are stored as salted argon2id hashes; nobody, including staff, can read them.
        </List.Item>
        <List.Item>
          Every video frame carries your roll number as a visible watermark, so a leaked recording can be
          traced. Do not record or share course videos.
        </List.Item>
        <List.Item>
          Your session lives in a secure, HttpOnly cookie for at most one day. Signing in on a third device
          ends the oldest session.
        </List.Item>
        <List.Item>
          Changes to your access (grants, extensions, revocations) are logged with who made them.
        </List.Item>
        <List.Item>
          Your data is not sold or shared with advertisers. Ask your bootcamp to export or delete it.
        </List.Item>
      </List>
    </Page>
  );
}

/** One item of the Support page: the question (or subject) in bold, then its answer. */
function HelpTopic({ topic, children }: { topic: string; children: React.ReactNode }) {
  return (
    <List.Item>
      <b>{topic}</b> {children}
    </List.Item>
  );
}

export function SupportPage() {
  return (
    <Page title="Support">
      <Text>Most questions are answered here. If not, contact your bootcamp administrator.</Text>
      <List spacing="xs">
        <HelpTopic topic="Forgot your password?">
          Use “Forgot password?” on the{' '}
          <Anchor component={Link} to="/" replace>
            sign-in page
          </Anchor>
          ; a one-time code is e-mailed to you.
        </HelpTopic>
        <HelpTopic topic="Course shows “Access Expired”?">
          Your access ended or was revoked. The administrator can extend it.
        </HelpTopic>
        <HelpTopic topic="Video does not play?">
          Use a current Chrome, Edge, Firefox or Safari, and check that the platform is within its opening
          hours (the sign-in page tells you when it is closed).
        </HelpTopic>
        <HelpTopic topic="Keyboard:">Space plays or pauses, the arrow keys jump 5 seconds.</HelpTopic>
      </List>
    </Page>
  );
}

export function ContactPage() {
  return (
    <Page title="Contact">
      <Text>
        For access, fees or course content, contact your bootcamp’s administrator or programme office; they
        manage your account here.
      </Text>
      <Text>
        For technical problems, e-mail{' '}
        <Anchor href="mailto:support@lectern.local">support@lectern.local</Anchor> with your roll number, the
        course and what you saw.
      </Text>
    </Page>
  );
}
