import { Box, Collapse, ScrollArea, Table, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useId, type Key, type ReactNode } from 'react';

/** A chart's figures as a table, behind a toggle: what a screen reader or a keyboard user reads instead of the drawing. */
export function ChartTable({ label, children }: { label: string; children: ReactNode }) {
  const [open, { toggle }] = useDisclosure(false);
  const id = useId();
  const Icon = open ? IconChevronDown : IconChevronRight;
  return (
    <Box mt="sm">
      <UnstyledButton
        onClick={toggle}
        aria-expanded={open}
        aria-controls={id}
        fz="sm"
        fw={600}
        c="red.8"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        <Icon size={16} aria-hidden="true" />
        {open ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
      </UnstyledButton>
      <Collapse expanded={open} id={id}>
        <ScrollArea.Autosize mah={360} mt="xs" type="auto" offsetScrollbars>
          {children}
        </ScrollArea.Autosize>
      </Collapse>
    </Box>
  );
}

/** A column of a chart's table: its heading and each row's cell; `right` for figures, `mono` for moments. */
export interface FigureColumn<Row> {
  head: string;
  cell(row: Row): ReactNode;
  right?: boolean;
  mono?: boolean;
}

/** A chart's figures as a striped, compact table (for a ChartTable): a row per item, a cell per column. */
export function FiguresTable<Row>({
  rows,
  rowKey,
  columns,
  stickyHeader,
}: {
  rows: readonly Row[];
  rowKey(row: Row): Key;
  columns: readonly FigureColumn<Row>[];
  stickyHeader?: boolean;
}) {
  return (
    <Table striped stickyHeader={stickyHeader} verticalSpacing={4} fz="sm">
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th key={column.head} ta={column.right ? 'right' : undefined}>
              {column.head}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={rowKey(row)}>
            {columns.map((column) => (
              <Table.Td
                key={column.head}
                ta={column.right ? 'right' : undefined}
                ff={column.mono ? 'monospace' : undefined}
              >
                {column.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
