"""The layers of docs/architecture.md hold, and the contracts really catch a wrong-way
import (run on a temporary copy of the tree with one import added)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).with_name("lint-imports")
PACKAGES = ("personaweb", "safety", "tenancy", "memory", "persona", "learning", "dashboard", "api")

pytestmark = pytest.mark.skipif(not LINT.exists(), reason="lint-imports is not installed")


def _copy_tree(dest: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "migrations", "*.pyc")
    for name in PACKAGES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, dest / name, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")


def _lint(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT), "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"},
    )


def test_the_tree_keeps_its_layers(tmp_path):
    _copy_tree(tmp_path)
    result = _lint(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout


@pytest.mark.parametrize(
    ("module", "added", "broken"),
    [
        (
            "memory/services.py",
            "import persona.services  # noqa",
            "memory is not allowed to import persona",
        ),
        (
            "memory/models.py",
            "import learning.models  # noqa",
            "memory is not allowed to import learning",
        ),
        (
            "persona/services.py",
            "import learning.models  # noqa",
            "persona is not allowed to import learning",
        ),
        (
            "learning/services/review.py",
            "import dashboard.views.persona  # noqa",
            "learning is not allowed to import dashboard",
        ),
        (
            "tenancy/models.py",
            "import memory.models  # noqa",
            "tenancy is not allowed to import memory",
        ),
        (
            "learning/selectors.py",
            "import learning.views  # noqa",
            "Models, services, selectors and tasks never import views or pages BROKEN",
        ),
        (
            # the English lexicon is read through safety.text only
            "memory/time_facet.py",
            "import lemminflect  # noqa",
            "memory.time_facet -> lemminflect",
        ),
    ],
)
def test_a_wrong_way_import_fails_the_contract(tmp_path, module, added, broken):
    _copy_tree(tmp_path)
    path = tmp_path / module
    path.write_text(path.read_text() + f"\n{added}\n")
    result = _lint(tmp_path)
    assert result.returncode != 0
    assert broken in result.stdout, result.stdout
