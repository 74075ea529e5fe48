import { Button, type ButtonProps } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export type DownloadButtonProps = Omit<ButtonProps, 'leftSection' | 'children'> & {
  href: string;
  children: ReactNode;
  'aria-label'?: string;
};

/**
 * A link that downloads a file (the browser saves it under the server's file name), drawn as a
 * button with the download icon; the icon is decoration, the text names the file.
 */
export function DownloadButton({ href, size = 'sm', children, ...button }: DownloadButtonProps) {
  return (
    <Button
      component="a"
      href={href}
      download
      size={size}
      leftSection={<IconDownload size={size === 'xs' ? 14 : 16} aria-hidden="true" />}
      {...button}
    >
      {children}
    </Button>
  );
}
