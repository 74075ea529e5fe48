import { Group, Table, Text } from '@mantine/core';
import type { AdminLiveClass } from '../../../contract/live';
import { plural } from '../../../contract/plural';
import { attendanceCsvUrl, useAttendance } from '../../api/live';
import { DownloadCsv } from '../ui/DownloadCsv';
import { DataTable } from '../ui/DataTable';
import { Empty } from '../ui/Empty';
import { formatDateTime } from '../ui/format';
import { Loaded } from '../ui/Loaded';
import { Section } from '../ui/Section';
import { TableSkeleton } from '../ui/TableSkeleton';

const minutes = (n: number) => (n === 0 ? '–' : `${n} min`);

/**
 * Who attended the class (docs/LIVE.md "Attendance"): every student of its course with when they
 * joined live, the minutes they watched live and of the recording; the same as CSV.
 */
export function AttendanceSection({ live }: { live: AdminLiveClass }) {
  const attendance = useAttendance(live._id, live.status === 'live');
  return (
    <Section id="live-class-attendance" title="Attendance">
      <Loaded
        query={attendance}
        failure="Could not load the attendance."
        loading={<TableSkeleton rows={3} label="Loading the attendance" />}
      >
        {(report) =>
          report.students.length === 0 ? (
            <Empty
              title="No students in this course"
              description="Enrol students in the course: they are listed here with what they watched."
            />
          ) : (
            <>
              <Group justify="space-between" gap="sm">
                <Text size="sm" data-testid="attendance-summary">
                  {report.summary.joined} of {plural(report.summary.students, 'student')} joined live;{' '}
                  {report.summary.watchedRecording} watched the recording.
                </Text>
                <DownloadCsv href={attendanceCsvUrl(live._id)} />
              </Group>
              {/* On a phone the minutes go under the student: four columns do not fit 390 px. */}
              <DataTable
                minWidth={300}
                columns={[
                  'Student',
                  'Joined live',
                  <Table.Th key="live" visibleFrom="sm">
                    Watched live
                  </Table.Th>,
                  <Table.Th key="recording" visibleFrom="sm">
                    Recording
                  </Table.Th>,
                ]}
              >
                {report.students.map((s) => (
                  <Table.Tr key={s.studentId} data-testid="attendance-row">
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {s.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {s.rollno ?? s.username}
                      </Text>
                      <Text size="xs" hiddenFrom="sm">
                        Watched live {minutes(s.liveMinutes)} · recording {minutes(s.recordingMinutes)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{s.joinedAt ? formatDateTime(s.joinedAt) : 'No'}</Text>
                    </Table.Td>
                    <Table.Td visibleFrom="sm">
                      <Text size="sm">{minutes(s.liveMinutes)}</Text>
                    </Table.Td>
                    <Table.Td visibleFrom="sm">
                      <Text size="sm">{minutes(s.recordingMinutes)}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </DataTable>
            </>
          )
        }
      </Loaded>
    </Section>
  );
}
