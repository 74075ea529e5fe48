import { Alert, Anchor, Paper, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMovie } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import type { FinalizeUploadResponse } from '../../../contract/media';
import { adminToasts } from '../../../contract/messages';
import { adminApi, adminKeys } from '../../api/admin';
import { reasonOf } from '../../api/client';
import { toast } from '../../ui/toast';
import { DescriptionInput } from '../ui/DescriptionInput';
import { FilePicker } from '../ui/FilePicker';
import { FormActions } from '../ui/FormActions';
import { formatBytes } from '../ui/format';
import { FormTextInput } from '../ui/FormTextInput';
import { PageHeader } from '../ui/PageHeader';
import { ServerReason } from '../ui/ServerReason';
import { ThumbnailInput } from '../ui/ThumbnailInput';
import { UploadProgressModal, type OverlayState } from '../upload/UploadProgressModal';
import { useChunkedUpload } from '../upload/use-chunked-upload';
import { CourseStudentsFields } from './CourseStudentsFields';
import { RecentUploads } from './RecentUploads';
import { initialValues, validate, type UploadFormValues } from './upload-form';

/** A finished upload whose details are not saved yet: a retry of Save only repeats the metadata call. */
interface Finalized {
  file: File;
  result: FinalizeUploadResponse;
}

/** /adminvideo: upload in 5 MB chunks, then name it, assign its course and grant it (SPEC.md sections 2 and 4). */
export default function UploadVideoPage() {
  const queryClient = useQueryClient();
  const form = useForm<UploadFormValues>({
    initialValues,
    validate,
    validateInputOnBlur: ['title', 'description'],
  });
  const { file } = form.getValues();
  const upload = useChunkedUpload();
  const [saving, setSaving] = useState(false);
  const [reason, setReason] = useState<string | null>(null);
  const [recent, setRecent] = useState<string[]>([]);
  const finalized = useRef<Finalized | null>(null);

  const submit = async (values: UploadFormValues) => {
    const picked = values.file!;
    setReason(null);
    try {
      let done = finalized.current?.file === picked ? finalized.current.result : null;
      if (!done) {
        done = await upload.start(picked);
        finalized.current = { file: picked, result: done };
      }
      setSaving(true);
      const { video } = await adminApi.saveVideo({
        title: values.title,
        description: values.description,
        thumbnail: values.thumbnail,
        url: done.url,
        duration: done.duration,
        rollnos: values.course ? values.rollnos : [],
        courses: values.course,
      });
      finalized.current = null;
      toast.success(adminToasts.videoUploaded);
      setRecent((ids) => [video._id, ...ids]);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    } catch (error) {
      if ((error as Error).name === 'AbortError') toast.info('Upload cancelled.');
      else {
        toast.error(adminToasts.uploadFailed);
        setReason(reasonOf(error));
      }
    } finally {
      setSaving(false);
    }
  };

  const overlay: OverlayState | null =
    upload.progress ?? (saving && file ? { phase: 'saving', sent: file.size, total: file.size } : null);
  const busy = overlay !== null;

  return (
    <Stack maw={860}>
      <PageHeader
        title="Upload Video"
        description="The file goes up in 5 MB parts and resumes by itself after a dropped connection."
      />
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <form noValidate onSubmit={form.onSubmit((values) => void submit(values))}>
          <Stack>
            <FormTextInput form={form} field="title" label="Title" withAsterisk />
            <DescriptionInput key={form.key('description')} {...form.getInputProps('description')} />
            <ThumbnailInput
              value={form.getValues().thumbnail}
              onChange={(value) => form.setFieldValue('thumbnail', value)}
              error={form.errors.thumbnail}
            />
            <CourseStudentsFields form={form} />
            <FilePicker
              icon={IconMovie}
              what="video file"
              label="Video file"
              description="MP4 or MKV"
              placeholder="Choose a video file"
              withAsterisk
              accept=".mp4,.mkv,video/mp4,video/x-matroska"
              rightSectionPointerEvents="auto"
              key={form.key('file')}
              {...form.getInputProps('file')}
            />
            {file && !form.errors.file && (
              <Text size="xs" c="dimmed" mt={-8}>
                {formatBytes(file.size)}
              </Text>
            )}
            {finalized.current && finalized.current.file === file && (
              <Alert color="orange" variant="light">
                The file is already uploaded; Upload Video saves its details again.
              </Alert>
            )}
            <ServerReason reason={reason} />
            <FormActions
              label="Upload Video"
              pending={busy}
              onCancel={() => form.reset()}
              cancelLabel="Clear"
            />
          </Stack>
        </form>
      </Paper>
      <RecentUploads ids={recent} />
      <Text size="sm" c="dimmed">
        Manage who can watch a video on{' '}
        <Anchor component={Link} to="/editvideo" replace size="sm" underline="always">
          Edit Video Access
        </Anchor>
        .
      </Text>
      <UploadProgressModal state={overlay} fileName={file?.name ?? ''} onCancel={upload.cancel} />
    </Stack>
  );
}
