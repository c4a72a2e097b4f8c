/** What the canvas asks the workspace to do (the workspace calls the server, then loads the answer). */
export interface CanvasActions {
  /** Moves a subsection one place up or down inside its section. */
  moveSubsection(sectionUuid: string, subsectionUuid: string, direction: 'up' | 'down'): void;
  /** Deletes a subsection; the workspace shows "Delete subsection?" first. */
  deleteSubsection(sectionUuid: string, subsectionUuid: string): void;
  /** Finalizes a subsection or reopens it ("Continue editing"). */
  setFinalized(sectionUuid: string, subsectionUuid: string, finalized: boolean): void;
}
