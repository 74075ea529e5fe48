import { schemaResolver } from '@mantine/form';
import { mediaMessages } from '../../../contract/media';
import { validation } from '../../../contract/messages';
import { VideoUploadBody } from '../../../contract/videos';

/** The Upload Video form: its fields, their start values and their rules. */
export interface UploadFormValues {
  title: string;
  description: string;
  thumbnail: string | null;
  course: string | null;
  rollnos: string[];
  file: File | null;
}

export const initialValues: UploadFormValues = {
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
export function validate(values: UploadFormValues) {
  const errors = detailsRules(values);
  if (!values.file || values.file.size === 0) errors.file = validation.videoFile;
  else if (!VIDEO_FILE.test(values.file.name)) errors.file = mediaMessages.unsupportedContainer;
  return errors;
}
