"""Leaving a Ray session is not held up by a Serve shutdown that hangs: Ray is shut down under it."""

from __future__ import annotations

import time

import pytest

from dualgraph.pipeline import ray_session

serve = pytest.importorskip("ray.serve", reason="the `serve` extra (ray[serve]) is not installed")


def test_a_hanging_serve_shutdown_is_not_waited_on(monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(serve, "shutdown", lambda: (calls.append("serve"), time.sleep(60)))
    import ray

    monkeypatch.setattr(ray, "shutdown", lambda: calls.append("ray"))
    t0 = time.monotonic()
    ray_session._shutdown(serve_timeout_s=0.3)
    assert time.monotonic() - t0 < 5
    assert calls == ["serve", "ray"]


def test_a_quick_serve_shutdown_comes_before_ray(monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(serve, "shutdown", lambda: calls.append("serve"))
    import ray

    monkeypatch.setattr(ray, "shutdown", lambda: calls.append("ray"))
    ray_session._shutdown()
    assert calls == ["serve", "ray"]
