import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Container,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { certificateMessages, type PublicCertificate } from '../../contract/certificates';
import { usePublicCertificate } from '../api/certificates';
import { ApiError } from '../api/client';
import { FullScreenLoader } from '../ui/FullScreenLoader';
import { Logo } from '../ui/Logo';

/**
 * /verify/:serial, the page the certificate's QR code opens: no sign-in, at any hour. It shows every
 * field the PDF prints, so an edited PDF is caught by comparing them, and whether the school still
 * stands by it; the signed Open Badges credential below is for machines.
 */
export default function VerifyPage() {
  const { serial = '' } = useParams();
  const certificate = usePublicCertificate(serial);

  let body;
  if (certificate.isPending) body = <FullScreenLoader label="Checking the certificate…" />;
  else if (certificate.isError) {
    const missing = certificate.error instanceof ApiError && [400, 404].includes(certificate.error.status);
    body = (
      <Alert
        color="red"
        variant="light"
        title={missing ? certificateMessages.notFound : certificateMessages.loadFailed}
        role="alert"
      >
        {missing ? (
          <Text size="sm">
            No certificate has the serial <Code>{serial}</Code>. Check it against the PDF, letter by letter.
          </Text>
        ) : (
          <Button size="xs" color="red" variant="outline" mt="xs" onClick={() => void certificate.refetch()}>
            Try again
          </Button>
        )}
      </Alert>
    );
  } else body = <Verdict certificate={certificate.data} />;

  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Anchor component={Link} to="/" underline="never" aria-label="Home">
          <Logo />
        </Anchor>
        <Title order={1}>Certificate verification</Title>
        {body}
      </Stack>
    </Container>
  );
}

function Verdict({ certificate: c }: { certificate: PublicCertificate }) {
  const valid = c.status === 'valid';
  const [showCredential, setShowCredential] = useState(false);
  const rows: [string, string][] = [
    ['Name', c.name],
    ['Roll number', c.rollno],
    ['Course', c.course],
    ['Batch', String(c.batch)],
    ['Issued', c.issuedOn],
    ['Serial', c.serial],
  ];
  const issuer = (c.credential.issuer as { id?: string } | undefined)?.id;
  return (
    <Stack gap="md">
      <Alert
        color={valid ? 'green' : 'red'}
        variant="light"
        role="status"
        icon={valid ? <IconCircleCheck aria-hidden="true" /> : <IconCircleX aria-hidden="true" />}
        title={valid ? certificateMessages.valid : certificateMessages.revokedTitle}
      >
        {valid
          ? 'The school issued this certificate and stands by it. Every field below must match the PDF you were given.'
          : `The school revoked this certificate${c.revokedReason ? `: ${c.revokedReason}` : '.'}`}
      </Alert>
      <Paper withBorder radius="md" p="md">
        <Table variant="vertical" layout="fixed" withRowBorders>
          <Table.Caption>What the certificate prints</Table.Caption>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={140} scope="row">
                  {label}
                </Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }} data-field={label}>
                  {value}
                </Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Th scope="row">Status</Table.Th>
              <Table.Td>
                <Badge color={valid ? 'green' : 'red'} variant="light">
                  {valid ? 'Valid' : 'Revoked'}
                </Badge>
              </Table.Td>
            </Table.Tr>
            {!valid && c.revokedReason && (
              <Table.Tr>
                <Table.Th scope="row">Reason</Table.Th>
                <Table.Td data-field="Reason">{c.revokedReason}</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Paper>
      <Stack gap={6}>
        <Text size="sm" c="dimmed">
          It is also an Open Badges 3.0 credential signed by the school
          {issuer ? (
            <>
              {' '}
              (<Code style={{ overflowWrap: 'anywhere' }}>{issuer}</Code>)
            </>
          ) : null}
          , which any Verifiable Credentials verifier can check, revocation included.
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            onClick={() => setShowCredential((v) => !v)}
            aria-expanded={showCredential}
            aria-controls="credential-json"
          >
            {showCredential ? 'Hide the credential' : 'Show the credential'}
          </Button>
          <Button
            size="xs"
            variant="default"
            component="a"
            download={`certificate-${c.serial}.json`}
            href={`data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(c.credential, null, 2))}`}
          >
            Download the credential
          </Button>
        </Group>
        {showCredential && (
          <Code block id="credential-json" style={{ maxHeight: 360, overflow: 'auto' }}>
            {JSON.stringify(c.credential, null, 2)}
          </Code>
        )}
      </Stack>
    </Stack>
  );
}
