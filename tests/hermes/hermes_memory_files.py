"""Run with the Hermes venv's python (``tests/hermes/test_memory_files_live.py``): Hermes's
own ``MemoryStore`` (``tools.memory_tool``) writes or reads ``$HERMES_HOME/memories``.

    hermes_memory_files.py add ENTRIES_JSON   # {"memory": [...], "user": [...]}: each
                                              # entry through MemoryStore.add
    hermes_memory_files.py read               # the entries as MemoryStore loads them

Prints one line ``RESULT <json>``: per target the entries MemoryStore holds, the file's
text, and (for ``add``) each add's answer.
"""

from __future__ import annotations

import json
import sys

from tools.memory_tool import MemoryStore, get_memory_dir


def main() -> None:
    store = MemoryStore()  # Hermes's default limits: 2,200 / 1,375 characters
    store.load_from_disk()
    answers: dict[str, list[dict]] = {"memory": [], "user": []}
    if sys.argv[1] == "add":
        for target, entries in json.loads(sys.argv[2]).items():
            for entry in entries:
                answers[target].append(store.add(target, entry))
        store = MemoryStore()
        store.load_from_disk()
    files = {
        target: (get_memory_dir() / name).read_text(encoding="utf-8")
        if (get_memory_dir() / name).exists()
        else None
        for target, name in (("memory", "MEMORY.md"), ("user", "USER.md"))
    }
    print(
        "RESULT "
        + json.dumps(
            {
                "memory": store.memory_entries,
                "user": store.user_entries,
                "files": files,
                "answers": answers,
                "snapshot": store._system_prompt_snapshot,
            }
        )
    )


if __name__ == "__main__":
    main()
