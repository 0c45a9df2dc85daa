from __future__ import annotations

from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = "Memory"

    def ready(self) -> None:
        # the injection scan (safety, below memory) reads and stores vectors through
        # memory's table, so each text is encoded once for every process
        from memory.embeddings import TextVectorStore
        from safety.encoder import set_vector_store

        set_vector_store(TextVectorStore())
        # and its verdicts, so each text is scanned once for every process too
        from memory.scan_verdicts import ScanVerdictStore
        from safety.memo import set_verdict_store

        set_verdict_store(ScanVerdictStore())
