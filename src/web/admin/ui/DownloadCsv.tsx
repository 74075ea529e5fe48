import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';

/** A link that downloads the answer on screen as CSV (the browser saves it under the server's file name). */
export function DownloadCsv({ href, label = 'Download CSV' }: { href: string; label?: string }) {
  return (
    <Button
      component="a"
      href={href}
      download
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden="true" />}
    >
      {label}
    </Button>
  );
}
