import { ActionIcon, Button, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconEye, IconEyeOff } from '@tabler/icons-react';
import { useState } from 'react';
import type { AdminLiveClass } from '../../../contract/live';

/** One address an encoder needs, with a copy button; `secret` values stay dotted until revealed. */
function IngestLine({
  label,
  value,
  hidden,
  hint,
}: {
  label: string;
  value: string;
  hidden?: boolean;
  hint?: string;
}) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Group gap={6} wrap="nowrap" align="flex-start">
        <Text
          size="sm"
          ff="monospace"
          style={{ overflowWrap: 'anywhere', flex: 1, minWidth: 0 }}
          aria-label={hidden ? `${label}: hidden` : undefined}
          data-testid={`ingest-${label}`}
        >
          {hidden ? '•'.repeat(24) : value}
        </Text>
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : `Copy the ${label}`} withArrow>
              <ActionIcon
                variant="subtle"
                color={copied ? 'teal' : 'gray'}
                onClick={copy}
                aria-label={copied ? `${label} copied` : `Copy the ${label}`}
              >
                {copied ? (
                  <IconCheck size={16} aria-hidden="true" />
                ) : (
                  <IconCopy size={16} aria-hidden="true" />
                )}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Where the instructor's encoder sends the class (docs/LIVE.md "Streaming from OBS"): the SRT address
 * (its passphrase is the key, so it is hidden with it), the RTMP server and the stream key, each with
 * a copy button; Show reveals the two secret ones, New key rotates (after a confirmation).
 */
export function IngestPanel({ live, onRotate }: { live: AdminLiveClass; onRotate?(): void }) {
  const [shown, setShown] = useState(false);
  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Button
          size="xs"
          variant="default"
          leftSection={
            shown ? <IconEyeOff size={14} aria-hidden="true" /> : <IconEye size={14} aria-hidden="true" />
          }
          onClick={() => setShown((s) => !s)}
          aria-pressed={shown}
        >
          {shown ? 'Hide the key' : 'Show the key'}
        </Button>
        {onRotate && live.status !== 'ended' && (
          <Button size="xs" variant="outline" color="red" onClick={onRotate}>
            New stream key
          </Button>
        )}
      </Group>
      <IngestLine
        label="SRT address"
        value={live.ingest.srtUrl}
        hidden={!shown}
        hint="OBS: Settings → Stream, Service Custom…, Server: this address; leave Stream Key empty."
      />
      <IngestLine
        label="RTMP server"
        value={live.ingest.rtmpUrl}
        hint="Or RTMP: Server: this address, Stream Key: the key below."
      />
      <IngestLine label="Stream key" value={live.ingest.streamKey} hidden={!shown} />
    </Stack>
  );
}
