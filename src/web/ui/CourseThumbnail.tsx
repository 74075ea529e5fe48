import { Box, Image, Text } from '@mantine/core';
import { useState } from 'react';

function initials(name: string): string {
  const words = name.split(/\s+/).filter(Boolean);
  return (words.length > 1 ? words[0]![0]! + words[1]![0]! : name.slice(0, 2)).toUpperCase();
}

/** A course's 16:9 picture, or its initials on a red gradient when it has none (or it fails to load). */
export function CourseThumbnail({ src, name }: { src: string | null; name: string }) {
  const [broken, setBroken] = useState(false);
  if (src && !broken) {
    return (
      <Image
        src={src}
        alt=""
        style={{ aspectRatio: '16 / 9' }}
        fit="cover"
        onError={() => setBroken(true)}
        loading="lazy"
      />
    );
  }
  return (
    <Box
      aria-hidden="true"
      style={{
        aspectRatio: '16 / 9',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'linear-gradient(135deg, var(--mantine-color-red-7), var(--mantine-color-grape-8))',
      }}
    >
      <Text c="white" fw={700} fz="clamp(18px, 4vw, 32px)">
        {initials(name)}
      </Text>
    </Box>
  );
}
