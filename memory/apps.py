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
