"""``dualgraph --verbose``: Ray's own log lines are let through (the switch the quiet mode reads)."""

import os

from dualgraph.cli import main
from dualgraph.pipeline.ray_logging import RAY_LOGS_ENV, ray_logs_wanted


def test_verbose_turns_ray_logs_on_and_default_leaves_them_off(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(RAY_LOGS_ENV, raising=False)
    assert main(["index", str(tmp_path / "missing"), "--index", str(tmp_path / "ix")]) == 2
    assert not ray_logs_wanted()
    assert main(["--verbose", "index", str(tmp_path / "missing"), "--index", str(tmp_path / "ix")]) == 2
    assert os.environ.get(RAY_LOGS_ENV) == "1" and ray_logs_wanted()
    assert "dataset directory not found" in capsys.readouterr().err
