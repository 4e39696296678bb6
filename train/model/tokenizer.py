"""Identifier-aware WordPiece tokenizer, written as a tokenizer.json that transformers.js 2.17 runs.

Code text is mostly identifiers: `getBestEncoding`, `HTTPServer`, `is_ascii_encoding`, `utf8`. The
normalizer splits them into words before anything else (camelCase and acronym boundaries become
spaces, `_` becomes a space, documentation markup goes, then lowercase), the pre-tokenizer keeps
runs of letters and of digits (punctuation is dropped), and WordPiece maps each piece to whole words or, for rare words, to a prefix
and `##` continuations. The Python side below mirrors exactly what transformers.js does with the
same JSON (the regexes are valid in both languages); test/unit/shippedModel.test.ts checks the ids
agree on real text.
"""

from collections import Counter
import re

PAD, UNK = "[PAD]", "[UNK]"
MAX_CHARS_PER_WORD = 100

# (pattern, replacement), applied in order, then lowercase. Zero-width matches insert a space.
REPLACEMENTS = [
    # Documentation markup names no code: Sphinx roles (`:class:`, `:py:meth:` before a backquote)
    # and JSDoc inline tags (`{@link`). Docstring sentences pasted as queries keep them; the
    # training queries had them reduced to words, so they go here, for every text, in the product too.
    (r":(?:[a-z]+:)?[a-z]+:(?=`)", " "),
    (r"\{@[a-z]+", " "),
    (r"(?<=[a-z0-9])(?=[A-Z])", " "),  # fooBar -> foo Bar, utf8Decode -> utf8 Decode
    (r"(?<=[A-Z])(?=[A-Z][a-z])", " "),  # HTTPServer -> HTTP Server
    (r"_", " "),  # snake_case -> snake case
]
# Words and numbers only: punctuation (a signature's brackets and colons, a query's backquotes) is
# dropped. As tokens of a bag of vectors it only diluted the mean: v1, trained with them, scored
# flat embedding search 0.326 -> 0.375 NDCG@10 on the bench:search corpora when they were dropped.
PIECE = r"[a-z]+|[0-9]+"

_replacements = [(re.compile(p), r) for p, r in REPLACEMENTS]
_piece = re.compile(PIECE)


def pre_tokenize(text: str) -> list[str]:
    for pattern, replacement in _replacements:
        text = pattern.sub(replacement, text)
    return _piece.findall(text.lower())


def learn_vocab(texts, size: int, min_count: int = 1) -> list[str]:
    """Specials, every single character seen (as a word start and as `##` continuation, so ASCII text
    never becomes [UNK]), the most frequent whole words (seen at least `min_count` times), then the
    most frequent word starts and continuations of the words left out, weighted by how often those
    words occur: a rare or unseen identifier is cut into pieces that were trained, not left to one
    vector trained on a handful of pairs."""
    words = Counter()
    for text in texts:
        words.update(pre_tokenize(text))
    chars = sorted({c for w in words for c in w})
    vocab = [PAD, UNK] + chars + ["##" + c for c in chars]
    budget = size - len(vocab)
    ranked = [w for w, n in words.most_common() if len(w) > 1]
    whole = [w for w in ranked if words[w] >= min_count][: int(budget * 0.8)]
    vocab += whole
    known = set(vocab)
    pieces = Counter()
    whole_set = set(whole)
    for w in (w for w in ranked if w not in whole_set):
        n = words[w]
        for k in range(2, min(6, len(w) - 1) + 1):
            pieces[w[:k]] += n
            pieces["##" + w[-k:]] += n
    vocab += [p for p, _ in pieces.most_common() if p not in known][: size - len(vocab)]
    return vocab


class WordPiece:
    def __init__(self, vocab: list[str]):
        self.vocab = vocab
        self.ids = {t: i for i, t in enumerate(vocab)}
        self.unk = self.ids[UNK]

    def encode(self, text: str, max_len: int) -> list[int]:
        out: list[int] = []
        for word in pre_tokenize(text):
            out.extend(self._word(word))
            if len(out) >= max_len:
                break
        return out[:max_len]

    def _word(self, word: str) -> list[int]:
        # Greedy longest match from the left, as transformers.js' WordPieceTokenizer.encode.
        if len(word) > MAX_CHARS_PER_WORD:
            return [self.unk]
        ids, start = [], 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                sub = word[start:end] if start == 0 else "##" + word[start:end]
                if sub in self.ids:
                    found = self.ids[sub]
                    break
                end -= 1
            if found is None:
                return [self.unk]
            ids.append(found)
            start = end
        return ids


def tokenizer_json(vocab: list[str]) -> dict:
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
            for i, t in enumerate([PAD, UNK])
        ],
        "normalizer": {
            "type": "Sequence",
            "normalizers": [{"type": "Replace", "pattern": {"Regex": p}, "content": r} for p, r in REPLACEMENTS] + [{"type": "Lowercase"}],
        },
        "pre_tokenizer": {"type": "Split", "pattern": {"Regex": PIECE}, "behavior": "Isolated", "invert": True},
        # No [CLS]/[SEP]: the embedding is the mean over the text's own tokens.
        "post_processor": None,
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {
            "type": "WordPiece",
            "unk_token": UNK,
            "continuing_subword_prefix": "##",
            "max_input_chars_per_word": MAX_CHARS_PER_WORD,
            "vocab": {t: i for i, t in enumerate(vocab)},
        },
    }


def tokenizer_config(max_len: int) -> dict:
    return {"model_max_length": max_len, "pad_token": PAD, "unk_token": UNK, "do_lower_case": False, "clean_up_tokenization_spaces": True}
