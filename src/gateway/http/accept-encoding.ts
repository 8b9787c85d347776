// Which content coding an answer goes out in, from the request's Accept-Encoding (RFC 9110 §12.5.3):
// the coding with the highest q-value above 0 among those we make (br, gzip); `*` stands for any not
// named; ties go to br (smaller for about the same CPU at the levels chosen: bench/RESULTS.md).
// No header, `identity`, or every coding at q=0: the answer goes as it is (never a 406).

export type Coding = 'br' | 'gzip';

/** Our codings in the order a tie is broken. */
const CODINGS: readonly Coding[] = ['br', 'gzip'];

/** The q-value of one list member (`gzip;q=0.5`), 1 when absent; NaN when malformed (the member is ignored). */
function qValue(params: string[]): number {
  for (const param of params) {
    const [name, value] = param.split('=', 2).map((s) => s.trim());
    if (name?.toLowerCase() === 'q') return /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value ?? '') ? Number(value) : Number.NaN;
  }
  return 1;
}

export function chooseCoding(header: string | string[] | undefined): Coding | undefined {
  if (header === undefined) return undefined;
  const weights = new Map<string, number>();
  for (const member of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = member.split(';');
    const coding = name!.trim().toLowerCase();
    const q = qValue(params);
    if (coding && !Number.isNaN(q)) weights.set(coding, q);
  }
  const any = weights.get('*') ?? 0;
  let best: Coding | undefined;
  let bestQ = 0;
  for (const coding of CODINGS) {
    const q = weights.get(coding) ?? any;
    if (q > bestQ) [best, bestQ] = [coding, q];
  }
  return best;
}
