"""Events memory sends to the apps above it (they connect in AppConfig.ready()).

Sent inside the writer's transaction: a receiver's writes commit or roll back with it.
"""

from __future__ import annotations

from django.dispatch import Signal

#: Turns were stored for an agent. kwargs: ``agent_id``, ``turns`` (user turns added).
turns_recorded = Signal()

#: A conversation was sealed (its beliefs' evidence is already withdrawn, in the same
#: transaction). kwargs: ``conversation``. Receivers drop what quotes it: learning its
#: waiting proposals, persona its open nominations.
conversation_sealed = Signal()

#: A belief stopped being active (superseded, corrected, retired, deleted or sealed: every
#: message it rested on was sealed). kwargs: ``belief`` (the ended row), ``reason`` (one
#: of those five words). Receivers withdraw
#: what depends on it (a nomination) or flag it for review (a persona entry).
belief_ended = Signal()

#: Consolidation committed or reinforced a belief it formed from a person's own words.
#: kwargs: ``belief``, ``outcome`` (created / corroborated / superseded), ``now``. The
#: only source of owner-document nominations (PRODUCT.md section 3).
belief_consolidated = Signal()

#: A superuser redacted a text (``memory.redaction``, ``persona.redaction``). kwargs:
#: ``redaction`` (the ``Redaction`` row), ``text`` (the removed words, for receivers to
#: find their copies; never stored or logged), ``agent_id`` (the agent whose data held
#: it, or None for a person's owner document), ``message_ids`` and ``belief_ids`` (the
#: redacted rows). Receivers blank their copies: persona its nominations, version
#: evidence and owner entries; learning the quotes and sentences of its proposals.
text_redacted = Signal()
