// Prints rows of cells as aligned columns (the benchmarks' result tables).
export function printTable(table: readonly (readonly string[])[]): void {
  const widths = table[0]!.map((_, i) => Math.max(...table.map((cells) => cells[i]!.length)));
  for (const cells of table)
    console.log(
      cells
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
}
