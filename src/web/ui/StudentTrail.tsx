import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { Link } from 'react-router';

/**
 * A student page's breadcrumbs: Courses (the dashboard), the pages on the way as links, then the
 * page itself, dimmed. Its links replace the history entry, as the student's ways back do.
 */
export function StudentTrail({
  links = [],
  here,
  lineClamp,
}: {
  links?: readonly { to: string; label: string }[];
  here: string;
  /** Lines the page's own name may take (a course's long name). */
  lineClamp?: number;
}) {
  return (
    <Breadcrumbs>
      <Anchor component={Link} to="/dashboard" replace size="sm">
        Courses
      </Anchor>
      {links.map(({ to, label }) => (
        <Anchor key={to} component={Link} to={to} replace size="sm">
          {label}
        </Anchor>
      ))}
      <Text size="sm" c="dimmed" lineClamp={lineClamp}>
        {here}
      </Text>
    </Breadcrumbs>
  );
}
