// The outgoing rows of Show Symbol Graph in the order a reader wants them, without `vscode`: about
// half the rows of a typed Python method were `USES typing.Any/Optional/Union`, burying its calls.
// Annotation-only uses of the typing modules fold into one row at the end; other uses of code outside
// the repository come after the repository's own edges.
import type { EdgeView } from '../core/graph/describe';

const TYPING = /^(typing|typing_extensions|collections\.abc)\./;

export type SymbolRow = { edge: EdgeView } | { folded: EdgeView[]; label: string };

export function symbolRows(outgoing: readonly EdgeView[]): SymbolRow[] {
  const typing = outgoing.filter((e) => e.kind === 'USES' && TYPING.test(e.qname));
  const rest = outgoing.filter((e) => !typing.includes(e));
  const external = (e: EdgeView) => (e.location === '(external)' ? 1 : 0);
  // A stable sort: the graph's order within each rank.
  const rows: SymbolRow[] = [...rest].sort((a, b) => external(a) - external(b)).map((edge) => ({ edge }));
  if (typing.length > 0) rows.push({ folded: typing, label: `USES ${typing.map((e) => e.qname.replace(TYPING, '')).join(', ')} (type annotations from ${[...new Set(typing.map((e) => e.qname.match(TYPING)![1]))].join(', ')})` });
  return rows;
}
