const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date (`YYYY-MM-DD`, or an ISO instant in the reader's zone) as "3 Mar 2026". */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  // A bare date is a calendar day, not midnight UTC: read it as local so no zone shifts the day.
  const date = DAY.test(value) ? new Date(`${value}T00:00:00`) : new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }).format(date);
}
