// RPG-Encoder's semantic features, lifted without a model: a few short verb–object phrases per function,
// method and class ("get debug flag", "send request", "initialize session"), from what the code says of
// itself: its name's words, its signature (a method that takes nothing is read as a getter) and its
// docstring's first verb phrase. The same code always gives the same phrases, so an entity is re-lifted
// only when its content hash changes.
import type { GraphNode } from '../model/schema';
import { identifierWords } from '../search/identifiers';

/** The kinds that get features: what the paper lifts (functions, methods, classes), interfaces as classes. */
export const FEATURE_KINDS: ReadonlySet<string> = new Set(['Function', 'Method', 'Class', 'Interface']);

/** Words past the verb a phrase keeps: the paper's features are a few words, not sentences. */
const MAX_OBJECT_WORDS = 4;

/**
 * Verbs code names and docstrings start with. A name that starts with one is already a verb–object
 * phrase (`parse_header`, `sendRequest`); a docstring's phrase is taken only from one of these, so
 * "The flask object implements…" gives nothing rather than a phrase starting with "the".
 */
const VERBS = new Set(
  ('accept access accumulate acquire activate adapt add adjust aggregate allocate allow analyze annotate append apply ' +
    'assert assign attach authenticate authorize await bind block build bump cache calculate call cancel capture cast ' +
    'change check choose clean cleanup clear clone close coerce collect combine commit compare compile complete compose ' +
    'compress compute configure confirm connect consume contain convert copy count create decode decorate decompress ' +
    'deconstruct decrement deduplicate defer define delete deliver deny deploy describe deserialize destroy detach detect ' +
    'determine disable discard discover dispatch display dispose do download drop dump emit enable encode encrypt end ' +
    'enforce ensure enter exist enqueue escape evaluate execute exit expand expect expire export extend extract fail fetch ' +
    'fill filter finalize find finish fire fit flatten flush fold force format forward generate get give group guard ' +
    'handle hash hide hook identify ignore import include increment index infer inherit init initialize inject insert ' +
    'inspect install instantiate intercept interpolate invalidate invoke iterate join keep kill launch list listen load ' +
    'localize lock log login logout lookup make map mark match measure merge migrate mount move negotiate normalize notify obtain open ' +
    'order output override pack paginate parse patch pause perform persist pick pipe place poll pop populate post prepare ' +
    'prepend preserve print process produce prompt propagate provide prune publish pull push put query queue quote raise ' +
    'read rebuild receive record recover redirect reduce refresh register reject release reload remove rename render ' +
    'reorder repair replace report request require reset resolve restore resume retrieve retry return reverse revert ' +
    'rewrite rollback rotate round route run sample sanitize save scan schedule search select send serialize serve set ' +
    'setup show shutdown sign skip sort split start stop store stream strip submit subscribe substitute sum supply ' +
    'support swap switch sync take teardown terminate test throw tokenize toggle track transform translate traverse ' +
    'trigger trim truncate try undo unescape unlock unpack unregister unsubscribe unwrap update upgrade upload use ' +
    'validate verify visit wait walk warn watch wrap write yield').split(' '),
);
/** Verb endings that make a word a verb whatever the list says: slugify, serialize, validate. */
const VERB_ENDING = /(?:ify|ize|ise)$/;

/** Names that begin with these are predicates or conversions: `is_valid` checks, `to_json` converts. */
const PREFIX_VERB: Record<string, string> = { is: 'check', has: 'check', can: 'check', should: 'check', needs: 'check', to: 'convert', as: 'convert', from: 'create', on: 'handle' };

/** Python's and JavaScript's special methods say what they do by protocol, not by their words. */
const SPECIAL_METHODS: Record<string, string> = {
  __init__: 'initialize', constructor: 'initialize', __new__: 'create', __call__: 'call', __repr__: 'describe',
  __str__: 'describe', __eq__: 'compare', __ne__: 'compare', __lt__: 'compare', __le__: 'compare', __gt__: 'compare',
  __ge__: 'compare', __hash__: 'hash', __iter__: 'iterate', __next__: 'iterate', __len__: 'count', __bool__: 'check',
  __contains__: 'check membership of', __getitem__: 'get item of', __setitem__: 'set item of', __delitem__: 'delete item of',
  __enter__: 'enter context of', __exit__: 'exit context of', __aenter__: 'enter context of', __aexit__: 'exit context of',
  __getattr__: 'get attribute of', __setattr__: 'set attribute of', __delattr__: 'delete attribute of',
  __add__: 'add', __radd__: 'add', __iadd__: 'add to', __sub__: 'subtract', __isub__: 'subtract from', __mul__: 'multiply',
  __truediv__: 'divide', __neg__: 'negate', __and__: 'intersect', __or__: 'combine', __invert__: 'invert',
  __get__: 'get descriptor of', __set__: 'set descriptor of', __copy__: 'copy', __deepcopy__: 'copy', __reduce__: 'serialize',
};

/** Docstring openings that come before the verb ("This function returns…", "Helper to build…"). */
const DOC_PREAMBLE = /^(?:(?:this|the)\s+(?:function|method|class|helper|decorator|property|routine)\s+|(?:a\s+)?(?:helper|utility|convenience)(?:\s+(?:function|method))?\s+(?:to|that|for)\s+|used\s+to\s+|(?:a\s+)?(?:function|method|class)\s+(?:to|that)\s+)/i;
/** Words that end a docstring's phrase: what follows is a condition or an aside, not the object. */
const PHRASE_END = new Set('if when whenever which that while unless because so since where but or otherwise until although see note e g i'.split(' '));
const ARTICLES = new Set(['a', 'an', 'the', 'any', 'some', 'its', 'their', 'this', 'these', 'those', 'given']);

/** A word as its verb, or undefined: `returns` → return, `applies` → apply, `pushes` → push. */
function asVerb(word: string): string | undefined {
  const w = word.toLowerCase();
  if (VERBS.has(w) || VERB_ENDING.test(w)) return w;
  if (w.endsWith('ies') && VERBS.has(`${w.slice(0, -3)}y`)) return `${w.slice(0, -3)}y`;
  if (w.endsWith('es') && VERBS.has(w.slice(0, -2))) return w.slice(0, -2);
  if (w.endsWith('s') && (VERBS.has(w.slice(0, -1)) || VERB_ENDING.test(w.slice(0, -1)))) return w.slice(0, -1);
  return undefined;
}

/** A third-person verb as its base form: `manages` → manage, `carries` → carry, `matches` → match. */
function thirdPerson(word: string): string | undefined {
  const w = word.toLowerCase();
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(?:ch|sh|ss|x|z)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && w.length > 3) return w.slice(0, -1);
  return undefined;
}

/** What a definition lifts to: the node, and the words of the class or module that holds it. */
export interface FeatureSubject {
  node: Pick<GraphNode, 'kind' | 'name' | 'signature' | 'doc'>;
  /** The container's name words (a method's class, a function's module): the object of a bare verb (`Flask.run` → run flask). */
  containerWords: string[];
  /**
   * What a chat model said the code does (`cartograph describe`: one sentence per function and class,
   * asked to start with its verb), when it was described: its verb phrase comes first, as the paper's
   * features are a model's reading of the code; the name and the docstring still give theirs.
   */
  said?: string;
}

/** One to three phrases, most telling first, without repeats. */
export function liftFeatures({ node, containerWords, said }: FeatureSubject): string[] {
  const phrases = [said ? docPhrase(said, true) : undefined, namePhrase(node, containerWords), docPhrase(node.doc)].filter((p): p is string => Boolean(p));
  return [...new Set(phrases)];
}

function namePhrase(node: FeatureSubject['node'], containerWords: string[]): string | undefined {
  const container = containerWords.slice(-MAX_OBJECT_WORDS).join(' ');
  const special = SPECIAL_METHODS[node.name];
  if (special) return `${special} ${container}`.trim();
  const words = identifierWords(node.name).filter((w) => !/^\d+$/.test(w));
  if (words.length === 0) return undefined;
  const object = (from: number) => words.slice(from, from + MAX_OBJECT_WORDS).join(' ');
  if (node.kind === 'Class' || node.kind === 'Interface') return `represent ${object(0)}`;
  const verb = asVerb(words[0]);
  if (verb) return words.length > 1 ? `${verb} ${object(1)}` : `${verb} ${container}`.trim();
  const prefixed = PREFIX_VERB[words[0]];
  if (prefixed && words.length > 1) return `${prefixed} ${object(0)}`;
  // A method that takes nothing but its receiver reads as a property of it (`Request.json` → get json).
  return `${takesNothing(node.signature) ? 'get' : 'compute'} ${object(0)}`;
}

/** `def json(self)`, `get size(): number`, `fn len(&self)`: no parameter besides the receiver. */
function takesNothing(signature: string): boolean {
  const params = /\(([^)]*)\)/.exec(signature)?.[1];
  if (params === undefined) return false;
  return params.split(',').map((p) => p.trim()).filter((p) => p && !/^(?:self|cls|&?(?:mut\s+)?self|this\s*:.*)$/.test(p)).length === 0;
}

/**
 * The docstring's first sentence's verb phrase: "Returns the value of the header, or None." → "return value of header".
 * `anyVerb`: a model was asked to start with the verb, so a third-person word the list lacks is taken as
 * one too ("Represents…", "Manages…").
 */
function docPhrase(doc: string, anyVerb = false): string | undefined {
  const sentence = doc.trim().split(/\n\s*\n/)[0].replace(/\s+/g, ' ').split(/(?<=[.!?:;])\s/)[0].replace(DOC_PREAMBLE, '');
  const words = sentence.match(/[A-Za-z][A-Za-z0-9_]*|[,.;:()!?]/g) ?? [];
  const verb = words[0] && (asVerb(words[0]) ?? (anyVerb ? thirdPerson(words[0]) : undefined));
  if (!verb) return undefined;
  const object: string[] = [];
  for (const raw of words.slice(1)) {
    const w = raw.toLowerCase();
    if (!/^[a-z]/.test(w) || PHRASE_END.has(w)) break;
    if (ARTICLES.has(w)) continue;
    object.push(w);
    if (object.length === MAX_OBJECT_WORDS) break;
  }
  // A trailing preposition ("return value of") promised an object the cut left out.
  while (object.length > 0 && /^(?:of|to|for|from|in|on|with|by|as|at|into|and)$/.test(object[object.length - 1])) object.pop();
  return object.length > 0 ? `${verb} ${object.join(' ')}` : undefined;
}
