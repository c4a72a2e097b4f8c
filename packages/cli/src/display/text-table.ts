import { displayWidth, padToWidth, truncateToWidth } from './display-width.js';
import { terminalText } from './terminal-text.js';

/** One column of a {@link formatTable} table. */
export interface TableColumn<Row> {
  /** The header, in capitals by convention (`TITLE`). */
  header: string;
  /** The cell's text; it is made safe for the terminal before printing. */
  value: (row: Row) => string;
  /** Widest the column may grow, in terminal columns; longer cells end in `…`. */
  maxWidth?: number;
}

/**
 * Rows as an aligned text table (two spaces between columns, the last column not padded), widths
 * measured in terminal columns so CJK text and emoji line up. Every cell goes through `terminalText`.
 */
export function formatTable<Row>(columns: readonly TableColumn<Row>[], rows: readonly Row[]): string[] {
  const cells = rows.map((row) =>
    columns.map((column) => {
      const text = terminalText(column.value(row));
      return column.maxWidth === undefined ? text : truncateToWidth(text, column.maxWidth);
    }),
  );
  const widths = columns.map((column, index) =>
    Math.max(displayWidth(column.header), ...cells.map((row) => displayWidth(row[index] ?? ''))),
  );
  const line = (values: readonly string[]) =>
    values
      .map((value, index) => (index === values.length - 1 ? value : padToWidth(value, widths[index] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.header)), ...cells.map(line)];
}
