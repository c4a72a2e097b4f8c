import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import {
  historyMode,
  requestedSelection,
  resolveSelection,
  type SelectableOutline,
  type Selection,
  sameSelection,
  selectionSearch,
} from './selection-url';

/**
 * The selection, kept in the URL (`?section=&subsection=`; SPEC.md W25, W26). Once the outline is `ready`,
 * what the URL asks for is checked against it and a wrong or missing part is corrected in place
 * (`replace`); `select` pushes a new section and replaces within one (a caller may ask for `replace`, as a
 * delete does: Back should not lead to what is gone). Other query parameters stay.
 */
export function useSelectionUrl(
  outline: SelectableOutline,
  ready: boolean,
): { selection: Selection; select: (next: Selection, options?: { replace?: boolean }) => void } {
  const [params, setParams] = useSearchParams();
  const requested = requestedSelection(params);
  const resolved = ready ? resolveSelection(outline, requested) : requested;
  const { sectionUuid, subsectionUuid } = resolved;
  const selection = useMemo<Selection>(
    () => ({ sectionUuid, subsectionUuid }),
    [sectionUuid, subsectionUuid],
  );
  const selectionRef = useRef(selection);
  selectionRef.current = selection;
  // What the URL asked for and what it gets instead; a new mismatch corrects again.
  const correction =
    ready && !sameSelection(requested, selection)
      ? JSON.stringify([requested.sectionUuid, requested.subsectionUuid, sectionUuid, subsectionUuid])
      : null;

  useEffect(() => {
    if (correction === null) return;
    setParams((current) => selectionSearch(current, selectionRef.current), { replace: true });
  }, [correction, setParams]);

  const select = useCallback(
    (next: Selection, options: { replace?: boolean } = {}) => {
      if (sameSelection(selectionRef.current, next)) return;
      const replace = options.replace ?? historyMode(selectionRef.current, next) === 'replace';
      selectionRef.current = next;
      setParams((current) => selectionSearch(current, next), { replace });
    },
    [setParams],
  );

  return { selection, select };
}
