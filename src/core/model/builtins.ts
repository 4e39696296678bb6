// Names a file can use without defining or importing them. A reference to one becomes an External
// node (`ext:py:builtins.len`, `ext:js:console.log`) rather than an unresolved reference. Language
// knowledge shared by the extractors (parse/) and resolution (graph/), so it sits below both, in model/.

export const PYTHON_BUILTINS = new Set(
  `abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex
  delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help
  hex id input int isinstance issubclass iter len list locals map max memoryview min next object oct open ord
  pow print property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type
  vars zip __import__ NotImplemented Ellipsis __name__ __file__ __doc__
  BaseException Exception ArithmeticError AssertionError AttributeError BlockingIOError BrokenPipeError
  BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError ConnectionRefusedError
  ConnectionResetError DeprecationWarning EOFError EnvironmentError FileExistsError FileNotFoundError
  FloatingPointError FutureWarning GeneratorExit ImportError ImportWarning IndentationError IndexError
  InterruptedError IOError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
  ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError OverflowError
  PendingDeprecationWarning PermissionError ProcessLookupError RecursionError ReferenceError ResourceWarning
  RuntimeError RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError
  SystemExit TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError
  UnicodeError UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning ZeroDivisionError`.split(/\s+/),
);

export const JS_GLOBALS = new Set(
  `globalThis window document console process Buffer require module exports __dirname __filename
  Object Function Array Number parseFloat parseInt Infinity NaN undefined Boolean String Symbol Date Promise
  RegExp Error AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError JSON Math
  Intl ArrayBuffer SharedArrayBuffer Atomics DataView Uint8Array Int8Array Uint16Array Int16Array
  Uint32Array Int32Array Float32Array Float64Array Uint8ClampedArray BigInt64Array BigUint64Array BigInt
  Map Set WeakMap WeakSet WeakRef FinalizationRegistry Proxy Reflect
  setTimeout clearTimeout setInterval clearInterval setImmediate clearImmediate queueMicrotask
  structuredClone fetch URL URLSearchParams TextEncoder TextDecoder AbortController AbortSignal
  Event EventTarget performance encodeURIComponent decodeURIComponent encodeURI decodeURI escape unescape
  isNaN isFinite eval Record Partial Required Readonly Pick Omit Exclude Extract NonNullable ReturnType
  Parameters InstanceType Awaited PromiseLike Iterable Iterator AsyncIterable ReadonlyArray`.split(/\s+/),
);
