import { Box, Collapse, ScrollArea, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';

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
