import { DownloadButton } from '../../ui/DownloadButton';

/** A link that downloads the answer on screen as CSV (the browser saves it under the server's file name). */
export function DownloadCsv({ href, label = 'Download CSV' }: { href: string; label?: string }) {
  return (
    <DownloadButton href={href} variant="default">
      {label}
    </DownloadButton>
  );
}
