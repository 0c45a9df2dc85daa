"""Scan verdicts recorded once per text and scanner build, read by every process
(``safety.memo``, memory's ``ScanVerdict``): one record per text holds both scans."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from memory.models import ScanVerdict
from memory.scan_verdicts import forget_other_scanners
from safety import checks, injection, memo
from safety.checks import check_write, render_safe_many, verdicts
from safety.errors import UnsafeText
from tests.safety.conftest import LEARNED_HIT, PATTERN_HIT, SECRET

ORDINARY = "Keeps the bakery's wholesale price list up to date every Monday."


def forget_in_process() -> None:
    """What a new process starts with: no verdict held in memory."""
    with injection._cache_lock:
        injection._cache.clear()
    with checks._secret_lock:
        checks._secret_cache.clear()


@pytest.fixture(autouse=True)
def _a_new_process():
    forget_in_process()
    yield
    forget_in_process()


@pytest.fixture
def no_scanning(monkeypatch):
    """Any scan that runs instead of reading a recorded verdict fails the test."""

    def refuse(*_args, **_kwargs):
        raise AssertionError("scanned again instead of reading the recorded verdict")

    forget_in_process()
    monkeypatch.setattr(injection, "learned_scores", refuse)
    monkeypatch.setattr(injection, "_pattern_hits", refuse)
    monkeypatch.setattr(checks, "find_secrets", refuse)
    yield
    forget_in_process()


def test_a_text_checked_at_write_is_never_scanned_again_by_another_process(db, request):
    check_write(ORDINARY, "belief")
    assert list(ScanVerdict.objects.values_list("scanner", flat=True)) == [
        memo.fingerprint("render")
    ]
    request.getfixturevalue("no_scanning")
    [verdict] = verdicts([ORDINARY], wait=False)  # a render that never waits for a model
    assert not verdict.blocked and not verdict.pending


@pytest.mark.parametrize("text", [PATTERN_HIT, LEARNED_HIT], ids=["pattern", "learned"])
def test_a_recorded_block_stays_blocked_with_its_reasons(db, request, text):
    first = verdicts([text], wait=True)[0]
    assert first.blocked and not first.pending
    request.getfixturevalue("no_scanning")
    again = verdicts([text], wait=False)[0]
    assert again == first
    assert render_safe_many([text], wait=False) == [first.placeholder]


def test_a_recorded_secret_stays_a_secret(db, request):
    with pytest.raises(UnsafeText):
        check_write(SECRET, "belief")  # refused: nothing stored, nothing recorded
    assert not ScanVerdict.objects.exists()
    verdicts([SECRET], wait=True)  # a render of it (an old row, say) records it
    request.getfixturevalue("no_scanning")
    verdict = verdicts([SECRET], wait=False)[0]
    assert verdict.blocked and verdict.ids[0] == "secret"


def test_the_store_holds_digests_and_reasons_never_the_text(db):
    verdicts([ORDINARY, PATTERN_HIT, SECRET], wait=True)
    rows = list(ScanVerdict.objects.values_list("digest", "verdict"))
    assert rows
    for digest, verdict in rows:
        assert len(digest) == 32
        stored = str(verdict)
        assert "AKIA" not in stored and "bakery" not in stored
        assert "ignore all" not in stored.lower() and "system prompt" not in stored


def test_a_verdict_of_another_scanner_build_is_not_read(db, monkeypatch):
    verdicts([ORDINARY], wait=True)
    assert ScanVerdict.objects.count() == 1
    forget_in_process()
    monkeypatch.setattr(memo, "_build_digest", lambda: "0123456789abcdef")
    ran: list[list[str]] = []
    real = injection.learned_scores

    def counted(texts, **kwargs):
        ran.append(list(texts))
        return real(texts, **kwargs)

    monkeypatch.setattr(injection, "learned_scores", counted)
    assert not verdicts([ORDINARY], wait=True)[0].blocked
    assert ran == [[ORDINARY]]  # the new build scanned it again
    assert ScanVerdict.objects.count() == 2  # and recorded its own verdict beside the old
    monkeypatch.undo()  # back to this build: the patched build's row is another's now
    assert forget_other_scanners() == 1
    assert list(ScanVerdict.objects.values_list("scanner", flat=True)) == [
        memo.fingerprint("render")
    ]
    forget_in_process()


def test_a_pending_result_is_never_recorded(slow_model, db):
    started, release, _ = slow_model
    text = "Brings the new glaze samples to the Thursday class."
    [verdict] = verdicts([text], wait=False)
    assert verdict.pending
    assert not ScanVerdict.objects.exists()
    release.set()


def test_two_processes_recording_the_same_verdict_keep_one_row(db):
    store = memo._store
    assert store is not None
    key = memo.digest(ORDINARY)
    payload = {"scan": {"patterns": [], "semantic": [], "score": 0.01, "ran": True}}
    store.put(memo.fingerprint("render"), {key: payload})
    store.put(memo.fingerprint("render"), {key: payload})
    assert ScanVerdict.objects.filter(digest=key).count() == 1


def test_an_unreadable_record_is_scanned_again(db):
    for junk in ("junk", {"scan": {"patterns": 3}, "secrets": []}, {"scan": None}):
        ScanVerdict.objects.update_or_create(
            digest=memo.digest(PATTERN_HIT),
            scanner=memo.fingerprint("render"),
            defaults={"verdict": junk},
        )
        forget_in_process()
        verdict = verdicts([PATTERN_HIT], wait=True)[0]
        assert verdict.blocked and "override.ignore_previous" in verdict.ids


def test_a_failing_store_costs_a_scan_and_leaves_the_callers_transaction_usable(db, monkeypatch):
    class Broken:
        def get(self, scanner, digests):
            with connection.cursor() as cursor:
                cursor.execute("SELECT * FROM no_such_table_here")
            return {}

        def put(self, scanner, verdicts):
            raise DatabaseError("read-only replica")

    monkeypatch.setattr(memo, "_store", Broken())
    forget_in_process()
    with transaction.atomic():
        assert verdicts([PATTERN_HIT], wait=True)[0].blocked
        assert not verdicts([ORDINARY], wait=True)[0].blocked
        assert ScanVerdict.objects.count() == 0  # the caller's next query still works
    forget_in_process()


def test_a_render_reads_the_recorded_verdicts_of_many_texts_in_one_query(
    db, request, django_assert_num_queries
):
    texts = [f"Keeps the price list of shop {n} up to date." for n in range(12)]
    verdicts(texts, wait=True)
    request.getfixturevalue("no_scanning")
    with django_assert_num_queries(3) as context:  # in a transaction: in a savepoint
        assert not any(v.blocked for v in verdicts(texts, wait=False))
    assert [q["sql"].split()[0] for q in context.captured_queries] == [
        "SAVEPOINT",
        "SELECT",
        "RELEASE",
    ]
    with django_assert_num_queries(0):  # now held by this process
        verdicts(texts, wait=False)


def test_outside_a_transaction_the_read_is_one_statement(
    transactional_db, request, django_assert_num_queries
):
    texts = [f"Sends the weekly rota for team {n} on Fridays." for n in range(5)]
    verdicts(texts, wait=True)
    request.getfixturevalue("no_scanning")
    with django_assert_num_queries(1):
        assert not any(v.blocked for v in verdicts(texts, wait=False))
