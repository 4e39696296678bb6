// Python: an untyped parameter typed from the arguments its own module passes it, as Jedi infers a
// parameter from the calls it can see. `FootnoteTreeprocessor(self)` in FootnoteExtension makes
// `self.footnotes = footnotes` in FootnoteTreeprocessor.__init__ a FootnoteExtension, so
// `self.footnotes.getConfig()` reaches its method; `self.compile(node)` with `node = WhereNode()`
// types `compile`'s `node`.
//
// The extractor binds each untyped parameter to a marker chain step (`(arg 0 footnotes
// FootnoteTreeprocessor.__init__)`) that flows like any type through locals, fields and returns,
// records each call of one of the module's own functions with its arguments' chains, and once every
// call is seen rewrites each marker to the one chain all its module's calls agree on, in a reference
// to a union of a few (Jedi's reading of a parameter called with several classes), or drops it (a
// call through an unknown value is what it was before, a possible call by name). Only calls in the
// same module are read, so an edit elsewhere never changes what a file's extraction says.

/** More classes than this passed to one parameter type it no more than none would. */
const MAX_UNION = 4;

/** A marker: the parameter's position among the arguments a call passes (`-`: keyword-only), its name, its function. */
const MARKER = /^\(arg (-|\d+) (\S+) (\S+)\)$/;

interface Parameter {
  position: number | null;
  name: string;
  def: string;
}

/**
 * One call of one of the module's functions: its arguments' chains (null: not known), in order up to
 * a `*args` (positions after one are unknown), and by keyword.
 */
export interface CallArguments {
  positional: Array<string[] | null>;
  keywords: Map<string, string[] | null>;
}

export function isArgumentMarker(step: string): boolean {
  return step.startsWith('(arg ');
}

export class ParameterArguments {
  private readonly calls = new Map<string, CallArguments[]>();
  private readonly resolved = new Map<string, string[][]>();
  private readonly resolving = new Set<string>();

  /** The chain step an untyped parameter of `def` (a localId) is bound to. */
  marker(def: string, position: number | null, name: string): string {
    return `(arg ${position ?? '-'} ${name} ${def})`;
  }

  /** A call of `def` (a localId of this module) with these arguments. */
  addCall(def: string, args: CallArguments): void {
    const list = this.calls.get(def);
    if (list) list.push(args);
    else this.calls.set(def, [args]);
  }

  /**
   * `chain` with a marker head rewritten to what the calls pass: the one chain they agree on; with
   * `union`, where they pass a few different ones, a union step (`(|A,B)`: each one's member, as Jedi
   * reads a parameter called with several classes); otherwise null.
   */
  rewrite(chain: string[], union = false): string[] | null {
    const passed = this.resolve(chain[0]);
    if (passed.length === 1) return [...passed[0], ...chain.slice(1)];
    if (!union || passed.length < 2 || passed.length > MAX_UNION) return null;
    return [`(|${passed.map((c) => c.join('.')).join(',')})`, ...chain.slice(1)];
  }

  /** The distinct chains the module's calls pass the parameter, through parameters passed on. */
  private resolve(marker: string): string[][] {
    const known = this.resolved.get(marker);
    if (known) return known;
    const parameter = parse(marker);
    // A parameter passed on to itself (recursion), or two passed to each other, passes nothing more.
    if (!parameter || this.resolving.has(marker)) return [];
    this.resolving.add(marker);
    const passed = new Map<string, string[]>();
    for (const call of this.calls.get(parameter.def) ?? []) {
      const argument = argumentFor(call, parameter);
      if (!argument) continue;
      const chains = isArgumentMarker(argument[0]) ? this.resolve(argument[0]).map((c) => [...c, ...argument.slice(1)]) : [argument];
      for (const chain of chains) passed.set(chain.join('.'), chain);
    }
    this.resolving.delete(marker);
    const result = [...passed.values()];
    this.resolved.set(marker, result);
    return result;
  }
}

function parse(marker: string): Parameter | null {
  const m = MARKER.exec(marker);
  return m ? { position: m[1] === '-' ? null : Number(m[1]), name: m[2], def: m[3] } : null;
}

/** What one call passes the parameter: by position, else by keyword; undefined: its default, or hidden in a spread. */
function argumentFor(call: CallArguments, parameter: Parameter): string[] | null | undefined {
  if (parameter.position !== null && parameter.position < call.positional.length) return call.positional[parameter.position];
  return call.keywords.get(parameter.name);
}
