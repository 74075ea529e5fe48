import { useCallback, useState } from 'react';

export interface StudentSelection {
  selected: ReadonlySet<string>;
  /** Selects (`on`) or unselects `ids`. */
  toggle(ids: readonly string[], on: boolean): void;
  clear(): void;
  /** Every one of `ids` is selected (false for none). */
  allOf(ids: readonly string[]): boolean;
  someOf(ids: readonly string[]): boolean;
}

/** The students ticked in the list, across its pages: for enrolling them together. */
export function useStudentSelection(): StudentSelection {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback(
    (ids: readonly string[], on: boolean) =>
      setSelected((current) => {
        const next = new Set(current);
        for (const id of ids) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return next;
      }),
    [],
  );
  const clear = useCallback(() => setSelected(new Set()), []);
  return {
    selected,
    toggle,
    clear,
    allOf: (ids) => ids.length > 0 && ids.every((id) => selected.has(id)),
    someOf: (ids) => ids.some((id) => selected.has(id)),
  };
}
