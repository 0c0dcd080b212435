export function HeadersTable({ headers, caption }: { headers: Record<string, string>; caption: string }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) {
    return <p className="text-xs text-slate-600 dark:text-slate-400">No headers recorded.</p>;
  }
  return (
    <table className="w-full table-fixed text-left font-mono text-xs">
      <caption className="sr-only">{caption}</caption>
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
            <th
              scope="row"
              className="w-2/5 py-1 pr-3 align-top font-medium text-slate-700 sm:w-56 dark:text-slate-300"
            >
              {name}
            </th>
            <td className="py-1 align-top break-all text-slate-900 dark:text-slate-100">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
