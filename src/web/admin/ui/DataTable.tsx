import { Button, Table, type TableProps } from '@mantine/core';
import { IconPencil, type Icon } from '@tabler/icons-react';
import { isValidElement, type ReactNode } from 'react';
import classes from './tables.module.css';

export interface DataTableProps extends TableProps {
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  minWidth: number;
  /** Header cells: a text (an 'Actions' column is right-aligned), or a <Table.Th> of its own. */
  columns: ReactNode[];
  /** The body's rows. */
  children: ReactNode;
  /** A height after which the body scrolls under a sticky header. */
  maxHeight?: number;
}

/** The back office's table: one header row over `children`, hover highlight, sideways scroll on small screens. */
export function DataTable({ minWidth, columns, children, maxHeight, ...table }: DataTableProps) {
  return (
    // The viewport takes focus so keyboard users can scroll a table wider than the screen.
    <Table.ScrollContainer
      minWidth={minWidth}
      mah={maxHeight}
      scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}
    >
      <Table verticalSpacing="xs" highlightOnHover stickyHeader={maxHeight !== undefined} {...table}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, i) =>
              isValidElement(column) ? (
                <Fragmented key={i}>{column}</Fragmented>
              ) : (
                <Table.Th key={i} className={column === 'Actions' ? classes.actions : undefined}>
                  {column}
                </Table.Th>
              ),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const Fragmented = ({ children }: { children: ReactNode }) => children;

/** A row's action button, named after what it acts on for screen readers (`label`). */
export function RowButton({
  label,
  onClick,
  icon: Icon,
  variant = 'light',
  color,
  children,
}: {
  label: string;
  onClick(): void;
  icon?: Icon;
  variant?: 'light' | 'default' | 'outline';
  color?: string;
  children: ReactNode;
}) {
  return (
    <Button
      size="xs"
      variant={variant}
      color={color}
      leftSection={Icon && <Icon size={14} aria-hidden="true" />}
      onClick={onClick}
      aria-label={label}
    >
      {children}
    </Button>
  );
}

/** A row's Edit button. */
export function EditButton({ label, onClick }: { label: string; onClick(): void }) {
  return (
    <RowButton icon={IconPencil} label={label} onClick={onClick}>
      Edit
    </RowButton>
  );
}
