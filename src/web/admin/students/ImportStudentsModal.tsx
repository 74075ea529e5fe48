import { Alert, Badge, Code, List, Modal, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ImportPreviewResponse } from '../../../contract/admin-students';
import { adminMessages } from '../../../contract/messages';
import { studentApi, adminStudentKeys } from '../../api/admin-students';
import { ApiError, messageOf } from '../../api/client';
import { toast } from '../../ui/toast';
import { readFile } from '../ui/read-file';
import { FormActions } from '../ui/FormActions';
import { DataTable } from '../ui/DataTable';
import { FilePicker } from '../ui/FilePicker';

const PREVIEW_FAILED = 'Could not check the file.';
const IMPORT_FAILED = 'Import failed; nothing was saved.';

function Preview({ preview }: { preview: ImportPreviewResponse }) {
  const bad = preview.rows.filter((r) => r.problems.length > 0).length;
  return (
    <Stack gap="xs">
      {preview.fileProblems.length > 0 && (
        <Alert color="red" variant="light" title="The file cannot be imported">
          <List size="sm">
            {preview.fileProblems.map((p) => (
              <List.Item key={p}>{p}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {preview.rows.length > 0 && (
        <>
          <Text size="sm" c={bad ? 'red.7' : 'teal.8'} fw={600}>
            {bad
              ? `${bad} of ${preview.rows.length} rows have problems. Fix them in the file and choose it again; nothing is saved until every row is valid.`
              : `All ${preview.rows.length} rows are valid.`}
          </Text>
          <DataTable
            minWidth={640}
            maxHeight={360}
            verticalSpacing={6}
            highlightOnHover={false}
            columns={['Line', 'Roll No', 'Name', 'Email', 'Username', 'Check']}
          >
            {preview.rows.map((row) => (
              <Table.Tr key={row.line} bg={row.problems.length ? 'var(--mantine-color-red-0)' : undefined}>
                <Table.Td>{row.line}</Table.Td>
                <Table.Td ff="monospace">{row.rollno}</Table.Td>
                <Table.Td>{row.name}</Table.Td>
                <Table.Td>{row.email}</Table.Td>
                <Table.Td>{row.username}</Table.Td>
                <Table.Td>
                  {row.problems.length ? (
                    <Text size="xs" c="red.8">
                      {row.problems.join('; ')}
                    </Text>
                  ) : (
                    <Badge color="teal" variant="light" size="sm">
                      OK
                    </Badge>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        </>
      )}
    </Stack>
  );
}

function ImportForm({ onClose }: { onClose(): void }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportPreviewResponse | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);

  const check = useMutation({
    mutationFn: studentApi.previewImport,
    onSuccess: setPreview,
    onError: (error) => toast.error(messageOf(error, PREVIEW_FAILED)),
  });
  const commit = useMutation({
    mutationFn: studentApi.import,
    onSuccess: async ({ message, mailFailures }) => {
      if (mailFailures.length) toast.error(message);
      else toast.success(message);
      onClose();
      await queryClient.invalidateQueries({ queryKey: adminStudentKeys.all });
    },
    onError: (error) => {
      // The server checked again and found problems (another admin was quicker): show them.
      const again =
        error instanceof ApiError ? (error.body.preview as ImportPreviewResponse | undefined) : undefined;
      if (again) setPreview(again);
      toast.error(messageOf(error, IMPORT_FAILED));
    },
  });

  const choose = async (picked: File | null) => {
    setFile(picked);
    setPreview(null);
    setCsv(null);
    setFileError(null);
    if (!picked) return;
    const text = await readFile(picked, 'text');
    if (!text.trim()) return setFileError(adminMessages.csvRequired);
    setCsv(text);
    check.mutate(text);
  };

  const valid = preview?.valid === true && csv !== null;
  return (
    <Stack>
      <Text size="sm">
        A CSV file with the header <Code>rollno,name,email</Code> and optionally <Code>username</Code> and{' '}
        <Code>password</Code>. Every row is checked first; nothing is saved unless all rows are valid.
        Students without a password get a generated one by e-mail.
      </Text>
      <FilePicker
        icon={IconFileSpreadsheet}
        label="CSV file"
        placeholder="Choose a .csv file"
        accept=".csv,text/csv"
        value={file}
        onChange={(picked) => void choose(picked)}
        error={fileError}
      />
      {check.isPending && (
        <Text size="sm" c="dimmed">
          Checking the file…
        </Text>
      )}
      {preview && <Preview preview={preview} />}
      <FormActions
        label={valid ? `Import ${preview.rows.length} students` : 'Import'}
        pending={commit.isPending}
        disabled={!valid}
        onCancel={onClose}
        onConfirm={() => csv && commit.mutate(csv)}
      />
    </Stack>
  );
}

/** CSV import with a preview of every row's problems before anything is written. */
export function ImportStudentsModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={opened} onClose={onClose} title="Import students from CSV" size="xl" fullScreen={phone}>
      {opened && <ImportForm onClose={onClose} />}
    </Modal>
  );
}
