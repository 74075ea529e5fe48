import { Group, Image, Stack, Text } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { THUMBNAIL_MAX_BYTES, THUMBNAIL_TYPES } from '../../../contract/courses';
import { adminMessages } from '../../../contract/messages';
import { FilePicker } from './FilePicker';
import { readFile } from './read-file';

export const THUMBNAIL_HINT = 'JPG or PNG, 1280×720 (16:9) recommended';
const WRONG_TYPE = 'Please choose a JPG or PNG image.';

function imageSize(src: string): Promise<{ width: number; height: number } | null> {
  return new Promise((resolve) => {
    const img = new window.Image();
    img.onload = () => resolve({ width: img.naturalWidth, height: img.naturalHeight });
    img.onerror = () => resolve(null);
    img.src = src;
  });
}

export interface ThumbnailInputProps {
  label?: string;
  /** The new image as a data URL (what the API takes), or null: none chosen (keep the current one). */
  value: string | null;
  onChange(value: string | null): void;
  /** The saved thumbnail's URL, shown until a new one is chosen. */
  current?: string | null;
  error?: React.ReactNode;
}

/** A JPG or PNG picked from disk, checked (type, 2 MB) and turned into a data URL, with a preview. */
export function ThumbnailInput({
  label = 'Thumbnail',
  value,
  onChange,
  current,
  error,
}: ThumbnailInputProps) {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [shape, setShape] = useState<string | null>(null);

  // The form was reset (or saved): forget the picked file too.
  useEffect(() => {
    if (value === null) {
      setFile(null);
      setShape(null);
    }
  }, [value]);

  const pick = async (picked: File | null) => {
    setFile(picked);
    setProblem(null);
    setShape(null);
    if (!picked) return onChange(null);
    if (!(THUMBNAIL_TYPES as readonly string[]).includes(picked.type)) {
      setProblem(WRONG_TYPE);
      return onChange(null);
    }
    if (picked.size > THUMBNAIL_MAX_BYTES) {
      setProblem(adminMessages.thumbnailTooLarge);
      return onChange(null);
    }
    const dataUrl = await readFile(picked, 'data-url');
    onChange(dataUrl);
    const size = await imageSize(dataUrl);
    if (size && Math.abs(size.width / size.height - 16 / 9) > 0.02) {
      setShape(`This image is ${size.width}×${size.height}; 1280×720 (16:9) is recommended.`);
    }
  };

  const preview = value ?? current ?? null;
  return (
    <Stack gap={6}>
      <FilePicker
        icon={IconPhoto}
        what="image"
        label={label}
        description={THUMBNAIL_HINT}
        placeholder="Choose an image"
        accept="image/png,image/jpeg"
        value={file}
        onChange={(picked) => void pick(picked)}
        error={problem ?? error}
      />
      {shape && (
        <Text size="xs" c="orange.8">
          {shape}
        </Text>
      )}
      {preview && (
        <Group gap="xs" wrap="nowrap">
          <Image
            src={preview}
            alt={value ? 'Chosen thumbnail' : 'Current thumbnail'}
            w={160}
            radius="sm"
            style={{ aspectRatio: '16 / 9' }}
            fit="cover"
          />
          <Text size="xs" c="dimmed">
            {value ? 'New thumbnail' : 'Current thumbnail'}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
