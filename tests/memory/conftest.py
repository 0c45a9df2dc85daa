"""Fixtures of the memory tests."""

from __future__ import annotations

import pytest

from tests.memory.beliefs_helpers import FakeModel


@pytest.fixture
def fake_model(monkeypatch, settings):
    """The stand-in model as the encoder (the learned scan is off: stand-in vectors
    cannot be judged)."""
    import safety.encoder

    settings.PERSONA_INJECTION_SEMANTIC = False
    model = FakeModel()
    monkeypatch.setattr(safety.encoder, "get_model", lambda: model)
    return model


@pytest.fixture
def stand_in_bank(monkeypatch, settings):
    """The stand-in encoder for the ranking tests, the question bank read afresh with it;
    returns the model."""
    from tests.memory.beliefs_helpers import use_stand_in_encoder

    return use_stand_in_encoder(monkeypatch, settings)
