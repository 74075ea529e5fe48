import { describe, expect, it } from 'vitest';
import { mediaMessages } from '../../../contract/media';
import { validation } from '../../../contract/messages';
import { initialValues, validate } from './upload-form';

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);

describe('the Upload Video form', () => {
  it('asks for a title and a video file', () => {
    const errors = validate(initialValues);
    expect(errors.title).toBeTruthy();
    expect(errors.file).toBe(validation.videoFile);
  });

  it('takes MP4 and MKV files only, and no empty file', () => {
    const values = { ...initialValues, title: 'Lecture 1' };
    expect(validate({ ...values, file: file('talk.mp4') }).file).toBeUndefined();
    expect(validate({ ...values, file: file('talk.MKV') }).file).toBeUndefined();
    expect(validate({ ...values, file: file('talk.avi') }).file).toBe(mediaMessages.unsupportedContainer);
    expect(validate({ ...values, file: file('talk.mp4', 0) }).file).toBe(validation.videoFile);
  });
});
