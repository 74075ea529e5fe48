/** A grid cell's colour: untouched cells stay plain, then deeper teal the more of the video was watched. */
export function heatStyle(share: number): { background: string; color: string } {
  if (share <= 0) return { background: 'var(--mantine-color-gray-0)', color: 'var(--mantine-color-dimmed)' };
  const strength = Math.round(15 + share * 85);
  return {
    background: `color-mix(in srgb, var(--mantine-color-teal-7) ${strength}%, transparent)`,
    color: strength > 55 ? 'var(--mantine-color-white)' : 'var(--mantine-color-text)',
  };
}
