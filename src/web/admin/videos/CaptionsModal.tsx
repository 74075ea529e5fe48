import { Button, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from '@mantine/form';
import { IconFileText, IconSend, IconTrash, IconUpload } from '@tabler/icons-react';
import type { z } from 'zod';
import { captionMessages, CaptionUploadFields, SpeechDraftPublishBody } from '../../../contract/captions';
import type { AdminVideo } from '../../../contract/videos';
import { adminApi, adminKeys, speechDraftFileUrl, useCaptionTracks, useSpeechDraft } from '../../api/admin';
import { DownloadButton } from '../../ui/DownloadButton';
import { DataTable } from '../ui/DataTable';
import { EditModal } from '../ui/EditModal';
import { FilePicker } from '../ui/FilePicker';
import { Loaded } from '../ui/Loaded';
import { ServerReason } from '../ui/ServerReason';
import { useAdminMutation } from '../ui/use-admin-mutation';

interface CaptionFormValues {
  language: string;
  label: string;
  file: File | null;
}

function CaptionTracks({ video }: { video: AdminVideo }) {
  const tracks = useCaptionTracks(video._id);
  /** The language whose Delete was pressed once: a second, explicit press deletes it. */
  const [armed, setArmed] = useState<string | null>(null);
  const remove = useAdminMutation(adminApi.deleteCaptions, {
    success: captionMessages.deleted,
    failure: captionMessages.deleteFailed,
    onDone: () => {},
    refresh: adminKeys.captions(video._id),
  });
  return (
    <Loaded
      query={tracks}
      failure={captionMessages.loadFailed}
      loading={
        <Text size="sm" c="dimmed">
          Loading captions…
        </Text>
      }
    >
      {(captions) =>
        captions.length === 0 ? (
          <Text size="sm" c="dimmed">
            No captions yet.
          </Text>
        ) : (
          <DataTable minWidth={330} columns={['Language', 'Label', 'Cues', 'Actions']}>
            {captions.map((track) => (
              <Table.Tr key={track.language}>
                <Table.Td>{track.language}</Table.Td>
                <Table.Td>{track.label}</Table.Td>
                <Table.Td>{track.cues}</Table.Td>
                <Table.Td ta="right">
                  {armed === track.language ? (
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setArmed(null)} autoFocus>
                        Cancel
                      </Button>
                      <Button
                        size="xs"
                        color="red"
                        aria-label={`Confirm: delete ${track.label} captions`}
                        loading={remove.isPending && remove.variables?.language === track.language}
                        onClick={() => remove.mutate({ videoId: video._id, language: track.language })}
                      >
                        Delete
                      </Button>
                    </Group>
                  ) : (
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      leftSection={<IconTrash size={14} aria-hidden="true" />}
                      aria-label={`Delete ${track.label} captions`}
                      onClick={() => setArmed(track.language)}
                    >
                      Delete
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )
      }
    </Loaded>
  );
}

const fieldError = (schema: z.ZodType, value: string) => {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
};

const cueCount = (n: number) => `${n} ${n === 1 ? 'cue' : 'cues'}`;

/**
 * The draft caption track from machine speech (docs/SEARCH.md), shown only when the video has
 * speech cues: download it to correct and upload, or publish it as it is in a language.
 */
function SpeechDraftPanel({ video }: { video: AdminVideo }) {
  const draft = useSpeechDraft(video._id);
  const tracks = useCaptionTracks(video._id);
  const form = useForm<{ language: string; label: string }>({
    initialValues: { language: 'en', label: '' },
    validate: {
      language: (v) => fieldError(SpeechDraftPublishBody.shape.language, v),
      label: (v) => (v.trim() ? fieldError(CaptionUploadFields.shape.label, v) : null),
    },
  });
  const publish = useAdminMutation(adminApi.publishSpeechDraft, {
    success: captionMessages.speechDraftPublished,
    failure: captionMessages.speechDraftPublishFailed,
    onDone: () => {},
    refresh: adminKeys.captions(video._id),
  });
  if (draft.isError)
    return (
      <Text size="sm" c="red" role="alert">
        {captionMessages.speechDraftLoadFailed}
      </Text>
    );
  if (!draft.data) return null;
  const language = form.values.language.trim();
  const replaces = tracks.data?.find((t) => t.language.toLowerCase() === language.toLowerCase());
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="speech-draft-title">
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          publish.mutate({
            videoId: video._id,
            language: values.language.trim(),
            label: values.label.trim() || undefined,
          }),
        )}
      >
        <Stack gap="xs">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <div>
              <Text fw={600} id="speech-draft-title">
                Draft from speech
              </Text>
              <Text size="sm" c="dimmed">
                {cueCount(draft.data.cues)} heard by the speech engine: download to correct and upload, or
                publish as it is.
              </Text>
            </div>
            <DownloadButton href={speechDraftFileUrl(video._id)} size="xs" variant="default">
              Download (.vtt)
            </DownloadButton>
          </Group>
          <Group grow align="flex-start">
            <TextInput label="Draft language (BCP 47)" placeholder="en" {...form.getInputProps('language')} />
            <TextInput label="Draft label" placeholder="Optional" {...form.getInputProps('label')} />
          </Group>
          {replaces ? (
            <Text size="sm" c="orange.9">
              Publishing replaces the {replaces.label} captions ({replaces.language}).
            </Text>
          ) : null}
          <ServerReason reason={publish.isError ? publish.reason : null} />
          <Group justify="flex-end">
            <Button
              type="submit"
              size="xs"
              loading={publish.isPending}
              leftSection={<IconSend size={14} aria-hidden="true" />}
            >
              Publish as captions
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** Upload form: a file in a language already listed replaces it. */
function CaptionUpload({ video }: { video: AdminVideo }) {
  const form = useForm<CaptionFormValues>({
    initialValues: { language: 'en', label: 'English', file: null },
    validate: {
      language: (v) => fieldError(CaptionUploadFields.shape.language, v),
      label: (v) => fieldError(CaptionUploadFields.shape.label, v),
      file: (v) => (v ? null : captionMessages.fileMissing),
    },
  });
  const save = useAdminMutation(adminApi.uploadCaptions, {
    success: captionMessages.saved,
    failure: captionMessages.uploadFailed,
    onDone: () => form.setFieldValue('file', null),
    refresh: adminKeys.captions(video._id),
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        save.mutate({
          videoId: video._id,
          language: values.language.trim(),
          label: values.label.trim(),
          file: values.file!,
        }),
      )}
    >
      <Stack gap="sm">
        <Text fw={600}>Upload a caption file</Text>
        <Group grow align="flex-start">
          <TextInput label="Language (BCP 47)" placeholder="en" {...form.getInputProps('language')} />
          <TextInput label="Label" placeholder="English" {...form.getInputProps('label')} />
        </Group>
        <FilePicker
          icon={IconFileText}
          label="Caption file (.vtt or .srt)"
          placeholder="Choose a file"
          accept=".vtt,.srt,text/vtt"
          {...form.getInputProps('file')}
        />
        <ServerReason reason={save.isError ? save.reason : null} />
        <Group justify="flex-end">
          <Button
            type="submit"
            loading={save.isPending}
            leftSection={<IconUpload size={16} aria-hidden="true" />}
          >
            Upload captions
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Captions of one video: the languages attached, delete, the draft from speech (when there is one),
 * and an upload (replace by language).
 */
export function CaptionsModal({ video, onClose }: { video: AdminVideo | null; onClose(): void }) {
  return (
    <EditModal title={video ? `Captions: ${video.title}` : 'Captions'} item={video} onClose={onClose}>
      {(item) => (
        <Stack>
          <CaptionTracks video={item} />
          <SpeechDraftPanel video={item} />
          <CaptionUpload video={item} />
        </Stack>
      )}
    </EditModal>
  );
}
