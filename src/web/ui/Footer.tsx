import { Anchor, Container, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { productName } from './product';

/** Policy, support and contact links; shown on every page except login and reset (see RootLayout). */
export function Footer() {
  return (
    <footer>
      <Container size="xl" py="lg">
        <Group justify="space-between" gap="xs">
          <Text size="sm" c="dimmed">
            © {new Date().getFullYear()} {productName()}
          </Text>
          <Group gap="md" component="nav" aria-label="Footer">
            <Anchor component={Link} to="/policy" replace size="sm" c="dimmed">
              Privacy policy
            </Anchor>
            <Anchor component={Link} to="/support" replace size="sm" c="dimmed">
              Support
            </Anchor>
            <Anchor component={Link} to="/contact" replace size="sm" c="dimmed">
              Contact
            </Anchor>
          </Group>
        </Group>
      </Container>
    </footer>
  );
}
