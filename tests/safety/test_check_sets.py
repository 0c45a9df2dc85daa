"""Check sets (``safety/data/injection_check_<name>.jsonl``) are answer keys written before a
change to the learned injection layer: they are measured, never trained on and never used to
choose a threshold, so no split may pick them up."""

from __future__ import annotations

from safety import learned
from safety.learned import SPLITS, load_file, split_paths


def _check_files():
    return sorted(learned.DATA_DIR.glob("injection_check_*.jsonl"))


def test_check_sets_are_in_no_split():
    files = _check_files()
    assert files
    in_splits = {p for split in SPLITS for p in split_paths(split)}
    assert not in_splits & set(files)


def test_check_sets_share_no_text_with_train_or_validation():
    fitted = {
        r.text
        for split in ("train", "validation")
        for p in split_paths(split)
        for r in load_file(p)
    }
    for path in _check_files():
        assert not {r.text for r in load_file(path)} & fitted, path.name


def test_a_check_set_holds_both_labels_in_several_languages():
    for path in _check_files():
        rows = load_file(path)
        assert {r.hostile for r in rows} == {True, False}
        assert len({r.lang for r in rows if not r.hostile}) >= 6
