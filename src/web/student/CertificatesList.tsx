import { Alert, Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { certificateMessages } from '../../contract/certificate-messages';
import { certificatePdfUrl, useMyCertificates } from '../api/certificates';
import { RevokedMark } from '../certificates/RevokedMark';
import { DownloadButton } from '../ui/DownloadButton';

/** The dashboard's certificates: one per completed course, each a PDF to download and a public page. */
export function CertificatesList() {
  const certificates = useMyCertificates();
  let body;
  if (certificates.isPending)
    body = (
      <Stack gap="sm" aria-busy="true" aria-label="Loading certificates">
        <Skeleton h={72} radius="md" />
      </Stack>
    );
  else if (certificates.isError)
    body = (
      <Alert color="red" variant="light" title={certificateMessages.listFailed}>
        <Button
          size="xs"
          color="red"
          variant="outline"
          mt="xs"
          aria-label="Try loading the certificates again"
          onClick={() => void certificates.refetch()}
        >
          Try again
        </Button>
      </Alert>
    );
  else if (certificates.data.length === 0)
    body = (
      <Text c="dimmed" size="sm">
        {certificateMessages.empty}
      </Text>
    );
  else
    body = (
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {certificates.data.map((c) => (
          <Paper component="li" key={c._id} withBorder radius="md" p="md" data-testid="certificate">
            <Group justify="space-between" align="flex-start" gap="sm">
              <Stack gap={2} style={{ minWidth: 0, flex: '1 1 220px' }}>
                <Text fw={600}>{c.course}</Text>
                <Text size="sm" c="dimmed">
                  Batch {c.batch} · issued {c.issuedOn} ·{' '}
                  <span style={{ fontFamily: 'monospace' }}>{c.serial}</span>
                </Text>
                {c.status === 'revoked' && (
                  <Group gap={6}>
                    <RevokedMark reason={c.revokedReason} />
                  </Group>
                )}
              </Stack>
              <Group gap="xs">
                <DownloadButton
                  href={certificatePdfUrl(c._id)}
                  color="red"
                  aria-label={`Download the certificate of ${c.course} (PDF)`}
                >
                  Download PDF
                </DownloadButton>
                <Anchor href={c.verifyUrl} target="_blank" size="sm">
                  Verification page
                </Anchor>
              </Group>
            </Group>
          </Paper>
        ))}
      </Stack>
    );
  return (
    <Stack gap="sm" component="section" aria-labelledby="certificates-title">
      <Title order={2} size="h3" id="certificates-title">
        Certificates
      </Title>
      {body}
    </Stack>
  );
}
