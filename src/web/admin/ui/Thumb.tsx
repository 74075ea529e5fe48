import { Box } from '@mantine/core';
import { CourseThumbnail } from '../../ui/CourseThumbnail';

/** A small 16:9 picture for tables and cards; initials when there is none. */
export function Thumb({ src, name, width = 96 }: { src: string | null; name: string; width?: number }) {
  return (
    <Box w={width} style={{ borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden', flexShrink: 0 }}>
      <CourseThumbnail src={src} name={name} />
    </Box>
  );
}
