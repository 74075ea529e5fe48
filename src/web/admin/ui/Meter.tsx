import { Progress } from '@mantine/core';

/**
 * A progress bar that says what it measures to a screen reader: `label` names it, `text` is read as
 * its value ("Decoding leak.mp4: 40%"); `percent` null is work whose share is not known yet (a full,
 * striped bar without a number); `moving` false is work that waits (a retry later): the stripes stand still.
 */
export function Meter({
  label,
  percent,
  text,
  color = 'blue',
  moving = true,
}: {
  label: string;
  percent: number | null;
  text: string;
  color?: string;
  moving?: boolean;
}) {
  return (
    <Progress.Root
      size="lg"
      radius="sm"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      aria-valuetext={text}
    >
      <Progress.Section value={percent ?? 100} color={color} striped animated={moving} withAria={false} />
    </Progress.Root>
  );
}
