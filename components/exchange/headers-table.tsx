export function HeadersTable({ headers, caption }: { headers: Record<string, string>; caption: string }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) {
    return <p className="text-xs text-muted">No headers recorded.</p>;
  }
  return (
    <table className="w-full table-fixed text-left font-mono text-xs">
      <caption className="sr-only">{caption}</caption>
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name} className="border-b border-subtle last:border-0">
            <th scope="row" className="w-2/5 py-1 pr-3 align-top font-medium text-body sm:w-56">
              {name}
            </th>
            <td className="py-1 align-top break-all text-fg">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
