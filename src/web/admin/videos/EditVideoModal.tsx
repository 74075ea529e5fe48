import { Select } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';

import { adminToasts } from '../../../contract/messages';
import { VideoUpdateBody, type AdminVideo } from '../../../contract/videos';
import { adminApi, useAdminCourses } from '../../api/admin';

import { courseLabel } from '../ui/format';
import { ThumbnailInput } from '../ui/ThumbnailInput';
import { editModalOf, type EditFormProps } from '../ui/EditModal';
import { EditForm } from '../ui/EditForm';
import { FormTextInput } from '../ui/FormTextInput';
import { DescriptionInput } from '../ui/DescriptionInput';
import { useAdminMutation } from '../ui/use-admin-mutation';

interface VideoFormValues {
  title: string;
  description: string;
  thumbnail: string | null;
  course: string | null;
}

const rules = schemaResolver(VideoUpdateBody.pick({ title: true, description: true, thumbnail: true }), {
  sync: true,
});

function EditVideoForm({ item: video, onDone }: EditFormProps<AdminVideo>) {
  const courses = useAdminCourses('video');
  const form = useForm<VideoFormValues>({
    initialValues: {
      title: video.title,
      description: video.description,
      thumbnail: null,
      course: video.course?._id ?? null,
    },
    validate: rules,
    validateInputOnBlur: true,
  });
  const save = useAdminMutation(adminApi.updateVideo, {
    success: adminToasts.videoUpdated,
    failure: adminToasts.updateVideoFailed,
    serverWords: true,
    onDone,
  });

  return (
    <EditForm
      pending={save.isPending}
      onCancel={onDone}
      onSubmit={form.onSubmit((values) =>
        save.mutate({
          videoId: video._id,
          title: values.title.trim(),
          description: values.description.trim(),
          thumbnail: values.thumbnail,
          course: values.course,
        }),
      )}
    >
      <FormTextInput form={form} field="title" label="Title" withAsterisk data-autofocus />
      <DescriptionInput key={form.key('description')} {...form.getInputProps('description')} />
      <ThumbnailInput
        value={form.getValues().thumbnail}
        onChange={(value) => form.setFieldValue('thumbnail', value)}
        current={video.customThumbnail}
        error={form.errors.thumbnail}
      />
      <Select
        label="Course"
        placeholder="Select Course"
        description="Leave empty to keep the video unassigned."
        data={(courses.data ?? []).map((c) => ({ value: c._id, label: courseLabel(c) }))}
        searchable
        clearable
        key={form.key('course')}
        {...form.getInputProps('course')}
        comboboxProps={{ withinPortal: true }}
      />
    </EditForm>
  );
}

/** The Edit modal of /editvideodetails: title, description, thumbnail and course; Save and Cancel. */
export const EditVideoModal = editModalOf('Edit video', EditVideoForm);
