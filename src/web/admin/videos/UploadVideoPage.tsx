import { Alert, Anchor, FileInput, MultiSelect, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconInfoCircle, IconMovie } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { FinalizeUploadResponse } from '../../../contract/media';
import { mediaMessages } from '../../../contract/media';
import { adminToasts, validation } from '../../../contract/messages';
import { VideoUploadBody } from '../../../contract/videos';
import { adminApi, adminKeys, useAdminCourses, useCourseStudents } from '../../api/admin';
import { reasonOf } from '../../api/client';
import { toast, toastOnce } from '../../ui/toast';
import { PageHeader } from '../ui/PageHeader';
import { courseLabel, formatBytes } from '../ui/format';
import { ThumbnailInput } from '../ui/ThumbnailInput';
import { UploadProgressModal, type OverlayState } from '../upload/UploadProgressModal';
import { useChunkedUpload } from '../upload/use-chunked-upload';
import { RecentUploads } from './RecentUploads';
import { FormActions } from '../ui/FormActions';
import { FormTextInput } from '../ui/FormTextInput';
import { ServerReason } from '../ui/ServerReason';
import { DescriptionInput } from '../ui/DescriptionInput';

interface UploadFormValues {
  title: string;
  description: string;
  thumbnail: string | null;
  course: string | null;
  rollnos: string[];
  file: File | null;
}

const initialValues: UploadFormValues = {
  title: '',
  description: '',
  thumbnail: null,
  course: null,
  rollnos: [],
  file: null,
};

const VIDEO_FILE = /\.(mp4|mkv)$/i;
export const SELECT_COURSE_FIRST = 'Please select a course first';

const detailsRules = schemaResolver(
  VideoUploadBody.pick({ title: true, description: true, thumbnail: true }),
  {
    sync: true,
  },
);

/** Title, description and thumbnail by the server's schema; the file by section 5's rules. */
function validate(values: UploadFormValues) {
  const errors = detailsRules(values);
  if (!values.file || values.file.size === 0) errors.file = validation.videoFile;
  else if (!VIDEO_FILE.test(values.file.name)) errors.file = mediaMessages.unsupportedContainer;
  return errors;
}

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
  const courses = useAdminCourses('video');
  const { course, file } = form.getValues();
  const students = useCourseStudents(course);
  const upload = useChunkedUpload();
  const [saving, setSaving] = useState(false);
  const [reason, setReason] = useState<string | null>(null);
  const [recent, setRecent] = useState<string[]>([]);
  const finalized = useRef<Finalized | null>(null);

  useEffect(() => {
    if (courses.isError) toastOnce('error', adminToasts.noCourses);
  }, [courses.isError]);
  useEffect(() => {
    if (students.isError) toastOnce('error', adminToasts.studentsFailed);
    else if (students.data?.length === 0) toastOnce('info', adminToasts.noStudentsForCourse, 3_000);
  }, [students.isError, students.data]);

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

  const studentOptions = (students.data ?? []).map((s) => ({
    value: s.rollno,
    label: `${s.rollno} · ${s.name}`,
  }));
  const allPicked = studentOptions.length > 0 && form.getValues().rollnos.length === studentOptions.length;

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
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <Select
                label="Course"
                placeholder="Select Course"
                data={(courses.data ?? []).map((c) => ({ value: c._id, label: courseLabel(c) }))}
                searchable
                clearable
                nothingFoundMessage={courses.isPending ? 'Loading courses…' : 'No courses found.'}
                value={course}
                onChange={(value) => {
                  form.setFieldValue('course', value);
                  form.setFieldValue('rollnos', []);
                }}
                comboboxProps={{ withinPortal: true }}
              />
              <Stack gap={4}>
                <MultiSelect
                  label="Students with access"
                  placeholder={course ? 'Choose students' : undefined}
                  data={studentOptions}
                  disabled={!course || students.isPending}
                  searchable
                  clearable
                  hidePickedOptions
                  maxDropdownHeight={240}
                  nothingFoundMessage="No students found for this course"
                  key={form.key('rollnos')}
                  {...form.getInputProps('rollnos')}
                  comboboxProps={{ withinPortal: true }}
                />
                {!course ? (
                  <Text size="xs" c="dimmed" style={{ display: 'flex', gap: 4, alignItems: 'center' }}>
                    <IconInfoCircle size={14} aria-hidden="true" /> {SELECT_COURSE_FIRST}
                  </Text>
                ) : students.data?.length === 0 ? (
                  <Text size="xs" c="dimmed">
                    {adminToasts.noStudentsForCourse}
                  </Text>
                ) : (
                  studentOptions.length > 0 && (
                    <Anchor
                      component="button"
                      type="button"
                      size="xs"
                      ta="left"
                      onClick={() =>
                        form.setFieldValue('rollnos', allPicked ? [] : studentOptions.map((o) => o.value))
                      }
                    >
                      {allPicked ? 'Clear all' : `Select all ${studentOptions.length} students`}
                    </Anchor>
                  )
                )}
              </Stack>
            </SimpleGrid>
            <FileInput
              label="Video file"
              description="MP4 or MKV"
              placeholder="Choose a video file"
              withAsterisk
              accept=".mp4,.mkv,video/mp4,video/x-matroska"
              clearable
              clearButtonProps={{ 'aria-label': 'Remove the chosen video file' }}
              leftSection={<IconMovie size={16} aria-hidden="true" />}
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
