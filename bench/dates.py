"""Date spotting: our regex spotter (dualgraph.skg.dates) vs dateparser on the same values.

    .venv/bin/python bench/dates.py                 # best of 3 rounds
    .venv/bin/python bench/dates.py --rounds 5

The values are the cases of tests/unit/test_dates.py (dated forms, status phrases and
negatives such as "5000 mAh") plus the hand-written forms below, each with the days it
should yield. A value is right when the set of (first day, last day) pairs read from it is
exactly the expected one (no date expected: nothing read). Rows:

* ours (cold): ``spot_dates`` with its per-string cache cleared before every round;
* ours (cached): the same values again with a warm cache (catalogs repeat values);
* our spans + dateparser: our spans, each read by ``DateDataParser.get_date_data``, to
  see whether dateparser reads a found span better than our own field reader;
* dateparser search_dates: ``search_dates`` finds spans, ``get_date_data`` on each gives
  its period (day/month/quarter/year), so precision can be compared too;
* dateparser parse: ``get_date_data`` on the whole value.

dateparser gets the same month-name languages as ours and, where a case passes
``day_first``, the matching DATE_ORDER; ours also gets the case's entry/section, which
dateparser has no way to take. Ratio = rate / the search_dates rate.
"""

from __future__ import annotations

import argparse
import calendar
import datetime
import importlib.util
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dateparser.date import DateDataParser  # noqa: E402
from dateparser.search import search_dates  # noqa: E402

from dualgraph.skg import dates  # noqa: E402

D = datetime.date
Interval = tuple[D, D]

# Hand-written forms beyond the tests: (value, keyword arguments, expected (start, end) ISO pairs).
EXTRA: list[tuple[str, dict, list[tuple[str, str]]]] = [
    ("Released 2021, April 12", {}, [("2021-04-12", "2021-04-12")]),
    ("Announced 2022, February 08", {}, [("2022-02-08", "2022-02-08")]),
    ("Sep. 5, 2020", {}, [("2020-09-05", "2020-09-05")]),
    ("Sept 2019", {}, [("2019-09-01", "2019-09-30")]),
    ("December 1st, 2018", {}, [("2018-12-01", "2018-12-01")]),
    ("1 Jan 2020", {}, [("2020-01-01", "2020-01-01")]),
    ("Launch: 2021-Q2", {}, [("2021-04-01", "2021-06-30")]),
    ("Available from Q2 2022", {}, [("2022-04-01", "2022-06-30")]),
    ("Coming in 2025", {}, [("2025-01-01", "2025-12-31")]),
    ("Exp. release 2023, November", {}, [("2023-11-01", "2023-11-30")]),
    ("Status: Discontinued. Released 2016, October", {}, [("2016-10-01", "2016-10-31")]),
    ("8 GB RAM, 128 GB storage", {}, []),
    ("Li-Po 4500 mAh, non-removable", {}, []),
    ("IP68 dust/water resistant (up to 1.5m for 30 min)", {}, []),
    ("Octa-core (1x3.0 GHz Cortex-X1 & 3x2.40 GHz Cortex-A78 & 4x1.8 GHz Cortex-A55)", {}, []),
    ("Samsung Galaxy A2020", {}, []),
    ("120Hz, HDR10+, 1750 nits (peak)", {}, []),
    ("Yes, with 2019 firmware", {}, []),
    ("Wi-Fi 802.11 a/b/g/n/ac/6e", {}, []),
]


def _load_test_cases() -> list[tuple[str, dict, list[Interval]]]:
    path = ROOT / "tests" / "unit" / "test_dates.py"
    spec = importlib.util.spec_from_file_location("_bench_test_dates", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = [
        (text, kw, [(D.fromisoformat(a), D.fromisoformat(b)) for a, b, *_ in want]) for text, kw, want in module.CASES
    ]
    out += [(text, {}, []) for text in module.NEGATIVES]
    out += [(text, {"day_first": flag}, [(day, day)]) for text, flag, day in _ambiguous()]
    return out


def _ambiguous() -> list[tuple[str, bool, D]]:
    return [
        ("03/04/2021", True, D(2021, 4, 3)),
        ("03/04/2021", False, D(2021, 3, 4)),
        ("05.06.2020", True, D(2020, 6, 5)),
    ]


def cases() -> list[tuple[str, dict, list[Interval]]]:
    extra = [(t, kw, [(D.fromisoformat(a), D.fromisoformat(b)) for a, b in w]) for t, kw, w in EXTRA]
    return _load_test_cases() + extra


def _period(day: datetime.datetime, period: str | None) -> Interval | None:
    d = day.date()
    if period in ("day", "time"):
        return d, d
    if period == "month":
        return d.replace(day=1), d.replace(day=calendar.monthrange(d.year, d.month)[1])
    if period == "quarter":
        first = 3 * ((d.month - 1) // 3) + 1
        return D(d.year, first, 1), D(d.year, first + 2, calendar.monthrange(d.year, first + 2)[1])
    if period == "year":
        return D(d.year, 1, 1), D(d.year, 12, 31)
    return None  # a week or an unknown period names no span here


class Dateparser:
    """dateparser readers with the settings a case asks for (DATE_ORDER from day_first)."""

    def __init__(self) -> None:
        self.languages = list(dates._LOCALES)
        self.parsers: dict[str, DateDataParser] = {}

    def settings(self, kw: dict) -> dict:
        s: dict = {"PREFER_DAY_OF_MONTH": "first"}
        if kw.get("day_first") is not None:
            s["DATE_ORDER"] = "DMY" if kw["day_first"] else "MDY"
        return s

    def parser(self, kw: dict) -> DateDataParser:
        s = self.settings(kw)
        key = s.get("DATE_ORDER", "")
        if key not in self.parsers:
            self.parsers[key] = DateDataParser(languages=self.languages, settings=s)
        return self.parsers[key]

    def read(self, text: str, kw: dict) -> Interval | None:
        data = self.parser(kw).get_date_data(text)
        return None if data.date_obj is None else _period(data.date_obj, data.period)

    def search(self, text: str, kw: dict) -> list[Interval]:
        found = search_dates(text, languages=self.languages, settings=self.settings(kw)) or []
        return [iv for span, _ in found if (iv := self.read(span, kw)) is not None]

    def parse(self, text: str, kw: dict) -> list[Interval]:
        return [iv] if (iv := self.read(text, kw)) is not None else []


def ours(text: str, kw: dict) -> list[Interval]:
    return [(f.start, f.end) for f in dates.spot_dates(text, **kw)]


def spans_then_dateparser(dp: Dateparser) -> Callable[[str, dict], list[Interval]]:
    def run(text: str, kw: dict) -> list[Interval]:
        # Our spans are cached; the cost measured is dateparser reading each one.
        spans = [text[f.start_char : f.end_char] for f in dates.spot_dates(text, **kw)]
        return [iv for span in spans if (iv := dp.read(span, kw)) is not None]

    return run


def measure(
    fn: Callable[[str, dict], list[Interval]], data: list, rounds: int, before: Callable[[], None] | None = None
) -> tuple[float, int, list[str]]:
    best, wrong = float("inf"), []
    for _ in range(rounds):
        if before:
            before()
        t0 = time.perf_counter()
        got = [fn(text, kw) for text, kw, _ in data]
        best = min(best, time.perf_counter() - t0)
        wrong = [text for (text, _, want), g in zip(data, got) if sorted(g) != sorted(want)]
    return len(data) / best, len(data) - len(wrong), wrong


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--show-wrong", action="store_true", help="list the values each reader got wrong")
    args = ap.parse_args()
    warnings.filterwarnings("ignore")  # dateparser's own deprecation chatter
    data = cases()
    dp = Dateparser()
    ours("Released 2020, March 15", {})  # month table, patterns: built once, outside the timing
    dp.search("Released 2020, March 15", {})

    rows = [
        ("ours (cold)", measure(ours, data, args.rounds, dates._spot.cache_clear)),
        ("ours (cached)", measure(ours, data, args.rounds)),
        ("our spans + dateparser", measure(spans_then_dateparser(dp), data, args.rounds)),
        ("dateparser search_dates", measure(dp.search, data, args.rounds)),
        ("dateparser parse", measure(dp.parse, data, args.rounds)),
    ]
    base = rows[3][1][0]
    print(f"{len(data)} values, best of {args.rounds} rounds")
    print(f"{'reader':26} {'values/s':>12} {'ratio':>9} {'right':>9}")
    for name, (rate, right, _) in rows:
        print(f"{name:26} {rate:12,.0f} {rate / base:8.1f}x {right:4d}/{len(data)}")
    if args.show_wrong:
        for name, (_, _, wrong) in rows:
            print(f"\n{name} wrong on {len(wrong)}:")
            for text in wrong:
                print(f"  {text!r}")


if __name__ == "__main__":
    main()
