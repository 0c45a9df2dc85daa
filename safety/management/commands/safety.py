"""``manage.py safety <action>``: the learned layer of the injection scan.

Actions:
  train            rebuild safety/data/injection_model.json from the labelled files
                   (fit on every train file, threshold from the validation files), then
                   record-scan
  record-scan      scan every validation row with the shipped model and the torch encoder
                   and record each row's verdict next to the model file
                   (safety/data/injection_model_validation_scan.json, safety.scan_record:
                   the suite checks a sample of rows against it instead of the full scan)
  train-secrets    rebuild safety/data/secrets_model.json (the secret scan's learned
                   layer) from every labelled secrets_<part>.jsonl but the test part
  eval [--split S] detection and false-alarm rates of the full scan (patterns + learned
                   layer) on a labelled split; every split when none is named
  export-encoder   export the packaged sentence model to ONNX and quantise it, once, into
  [--force]        var/encoder/ (safety.onnx_export); `make install`, `make run` and
                   .ci/run call it, so no web process has to

``train`` loads the embedding model and encodes the labelled texts directly (nothing is
stored in the database). The same files and the same model give the same model file.
A split is ``injection_<split>.jsonl`` plus any ``injection_<split>_<part>.jsonl``; the
test split may not be written yet (``eval`` says so).
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from safety.learned import MODEL_PATH, SPLITS


class Command(BaseCommand):
    help = "The injection scan's learned layer: retrain it, or measure it on a labelled split."

    def add_arguments(self, parser: ArgumentParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
        actions.add_parser("train", help="Rebuild the shipped model from the labelled files.")
        actions.add_parser(
            "record-scan", help="Record the full scan's verdict of every validation row."
        )
        actions.add_parser("train-secrets", help="Rebuild the secret scan's learned layer.")
        ev = actions.add_parser("eval", help="Rates of the full scan on the labelled splits.")
        ev.add_argument("--split", choices=SPLITS, default=None)
        ex = actions.add_parser("export-encoder", help="Make the ONNX sentence encoder file.")
        ex.add_argument("--force", action="store_true", help="make it again even if present")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "train":
            self.train()
            self.record_scan()
        elif options["action"] == "record-scan":
            self.record_scan()
        elif options["action"] == "train-secrets":
            self.train_secrets()
        elif options["action"] == "export-encoder":
            self.export_encoder(force=options["force"])
        else:
            self.evaluate(options["split"])

    def export_encoder(self, *, force: bool) -> None:
        from safety.encoder import export_onnx, onnx_path

        path = onnx_path()
        if path.exists() and not force:
            self.stdout.write(f"The ONNX encoder is there already: {path}")
            return
        self.stdout.write(f"Exporting the sentence encoder to {path} ...")
        export_onnx(force=force)
        size = path.stat().st_size / 1e6
        self.stdout.write(self.style.SUCCESS(f"Wrote {path} ({size:.0f} MB)."))

    def train(self) -> None:
        from safety.encoder import encode
        from safety.learned import set_model, train

        model, result = train(lambda texts: encode(texts))
        MODEL_PATH.write_text(model.to_json(), encoding="utf-8")
        set_model(None)
        self.stdout.write(
            f"Wrote {MODEL_PATH.name}: threshold {model.threshold:.4f}; validation detection "
            f"{result.detection:.1%} ({result.detected}/{result.hostile}), false alarms "
            f"{result.false_alarm_rate:.1%} ({result.false_alarms}/{result.ordinary})."
        )

    def record_scan(self) -> None:
        from safety import scan_record
        from safety.learned import get_model, load_split, rates

        record = scan_record.write_with_torch()
        flags = "".join(f["verdicts"] for f in record["files"].values())
        result = rates(load_split("validation"), [v != scan_record.PASSES for v in flags])
        recorded = get_model().meta["validation"]
        self.stdout.write(
            f"Wrote {scan_record.RECORD_PATH.name}: the full scan detects {result.detected}/"
            f"{result.hostile}, false alarms {result.false_alarms}/{result.ordinary}."
        )
        if (result.detected, result.false_alarms) != (
            recorded["detected"],
            recorded["false_alarms"],
        ):
            self.stderr.write(
                f"The full scan's figures differ from the model's recorded ones "
                f"({recorded['detected']} detected, {recorded['false_alarms']} false alarms)."
            )

    def train_secrets(self) -> None:
        from safety import secret_scorer

        parts = secret_scorer.training_parts()
        rows = [row for part in parts for row in secret_scorer.load_part(part)]
        model = secret_scorer.train(rows)
        secret_scorer.MODEL_PATH.write_text(model.to_json(trained_on=parts), encoding="utf-8")
        secret_scorer.set_model(None)
        self.stdout.write(
            f"Wrote {secret_scorer.MODEL_PATH.name} from {len(rows)} texts ({', '.join(parts)})."
        )

    def evaluate(self, split: str | None) -> None:
        from safety.injection import scan_many
        from safety.learned import load_split, rates, split_exists

        for name in [split] if split else list(SPLITS):
            if not split_exists(name):
                self.stdout.write(f"{name:10s} ({name} split not written yet)")
                continue
            rows = load_split(name)
            flagged = [r.blocked for r in scan_many([r.text for r in rows], semantic=True)]
            result = rates(rows, flagged)
            self.stdout.write(
                f"{name:10s} detection {result.detection:6.1%} ({result.detected}/{result.hostile})"
                f"   false alarms {result.false_alarm_rate:6.1%} "
                f"({result.false_alarms}/{result.ordinary})"
            )
