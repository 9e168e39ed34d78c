import React from "react";

type Row = { id: string; name: string; total: number };

export function TableHead({ columns }: { columns: string[] }) {
  return (
    <Table>
      <TableBody>
        {columns.map((c) => (
          <Cell key={c}>{c}</Cell>
        ))}
      </TableBody>
    </Table>
  );
}

export function TableBody({ data }: { data: Row[] }) {
  return (
    <Table>
      <TableBody>
        {data.map((row) => (
          <Cell key={row.id}>{row.name}</Cell>
        ))}
      </TableBody>
    </Table>
  );
}
