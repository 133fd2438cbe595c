"""Does a question set survive its catalogue written in another locale?

    .venv/bin/python bench/locale_transfer.py fridges cameras --locale de_DE --locale fr_FR

For each own set (``bench/own_sets/<name>``), the catalogue its ``make_set.py`` writes is indexed
twice: as written, and with every number that has a decimal point or thousands separators
re-written by babel in ``--locale`` ("1,234.5" becomes "1.234,5" in de_DE and "1 234,5" in fr_FR,
the space there being the narrow no-break one), in the spec values and in the page prose alike.
Whole numbers without separators stay as they are (years, model numbers). The questions and their
gold do not change: they are computed from the source fields, so the same answers are right in both.

With ``--yes-no``, a catalogue writes every whole "Yes"/"No" value as "Y"/"N", as many
spreadsheets do; with ``--snake-keys``, every spec name as a database column ("Annual Energy Use
(kWh/yr)" becomes "annual_energy_use_kwh_yr"); with ``--metric``, every bare number under an
imperial bracket in metric units ("Height (in)": "22.4" becomes "Height (cm)": "56.9"), while the
questions still ask in inches and cubic feet. Prints overall / list F1 / value accuracy per set and variant, side by side with the catalogue as
written, so the ratio shows what the locale costs the reader. Work goes under ``--out``
(default ``runs/locale_transfer``); ``--reuse`` answers over indexes already built there.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import subprocess
import sys
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

from babel.numbers import format_decimal

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench" / "own_sets"))
import run as own  # noqa: E402  (bench/own_sets/run.py: import, index, answer, evaluate)

# a number written with a decimal point or with comma thousands ("1,299.00", "22.4"); not inside a
# word or a dotted code ("v5.3" stays, "192.168.0.1" stays)
_NUMBER = re.compile(r"(?<![\w.,])(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+)(?![\w.]|,\d)")


def localise(text: str, locale: str) -> str:
    """``text`` with its separated numbers written as ``locale`` writes them.

    >>> localise("Height 22.4 in, price 1,299.00 GBP, Bluetooth 5.3, made 2021", "de_DE")
    'Height 22,4 in, price 1.299,00 GBP, Bluetooth 5,3, made 2021'
    """

    def one(m: re.Match[str]) -> str:
        digits = m.group().replace(",", "")
        places = len(digits.partition(".")[2])  # "1,299.00" keeps its two places
        pattern = "#,##0" + ("." + "0" * places if places else "")
        return format_decimal(Decimal(digits), format=pattern, locale=locale)

    return _NUMBER.sub(one, text)


_SHORT = {"yes": "Y", "no": "N"}


def _KEYS(text: str) -> str:  # the snake_case variant rewrites the spec names, not the texts
    return text


def _METRIC_UNITS(text: str) -> str:  # the metric variant rewrites the spec table, not the texts
    return text


def yes_no_letters(text: str) -> str:
    """A whole value "Yes" or "No" written as the letter many spreadsheets use.

    >>> yes_no_letters("Yes"), yes_no_letters("no"), yes_no_letters("Yes, with a dock")
    ('Y', 'N', 'Yes, with a dock')
    """
    return _SHORT.get(text.strip().casefold(), text)


def snake_case(text: str) -> str:
    """A spec name as a database column writes it.

    >>> snake_case("Capacity (Total Volume) (ft3)"), snake_case("Annual Energy Use (kWh/yr)")
    ('capacity_total_volume_ft3', 'annual_energy_use_kwh_yr')
    """
    return "_".join(re.findall(r"[a-z0-9]+", text.casefold()))


# imperial unit in a spec name's bracket → (metric unit, factor, places)
_METRIC = {
    "in": ("cm", 2.54, 1),
    "ft3": ("l", 28.316846592, 1),
    "lb": ("kg", 0.45359237, 2),
    "lbs": ("kg", 0.45359237, 2),
}
_BRACKET_UNIT = re.compile(r"\((in|ft3|lbs?)\)\s*$")


def metric_specs(x: Any) -> Any:
    """A spec table with every bare number under an imperial bracket ("Height (in)": "22.4") in
    metric units ("Height (cm)": "56.9"), rounded as a shop would print them.

    >>> metric_specs({"Dimensions": {"Height (in)": "22.4", "Width (in)": "n/a"}, "Type": "Compact"})
    {'Dimensions': {'Height (cm)': '56.9', 'Width (cm)': 'n/a'}, 'Type': 'Compact'}
    """
    if not isinstance(x, dict):
        return x
    out = {}
    for k, v in x.items():
        m = _BRACKET_UNIT.search(k)
        if m is None or not isinstance(v, str):
            out[k] = metric_specs(v)
            continue
        unit, factor, places = _METRIC[m.group(1)]
        key = k[: m.start()] + f"({unit})"
        out[key] = f"{float(v) * factor:.{places}f}" if re.fullmatch(r"\d+(?:\.\d+)?", v.strip()) else v
    return out


def _snake_keys(x: Any) -> Any:
    if isinstance(x, dict):
        return {snake_case(k): _snake_keys(v) for k, v in x.items()}
    return x


def _walk(x: Any, rewrite: Callable[[str], str]) -> Any:
    if isinstance(x, str):
        return rewrite(x)
    if isinstance(x, dict):
        return {k: _walk(v, rewrite) for k, v in x.items()}
    if isinstance(x, list):
        return [_walk(v, rewrite) for v in x]
    return x


def localise_catalog(src: Path, dst: Path, rewrite: Callable[[str], str], keep: set[str]) -> None:
    """Write ``src``'s catalog.jsonl into ``dst`` with every text ``rewrite``-n, except in the fields
    the mapping reads as names (a product's name is its identity in the gold)."""
    dst.mkdir(parents=True, exist_ok=True)
    with (src / "catalog.jsonl").open(encoding="utf-8") as f, (dst / "catalog.jsonl").open("w", encoding="utf-8") as g:
        for line in f:
            row = json.loads(line)
            out = {k: (v if k in keep else _walk(v, rewrite)) for k, v in row.items()}
            if rewrite is _KEYS and isinstance(out.get("specs"), dict):
                out["specs"] = _snake_keys(out["specs"])
            if rewrite is _METRIC_UNITS and isinstance(out.get("specs"), dict):
                out["specs"] = metric_specs(out["specs"])
            g.write(json.dumps(out, ensure_ascii=False) + "\n")
    (dst / "mapping.yaml").write_text((src / "mapping.yaml").read_text(encoding="utf-8"), encoding="utf-8")


def _name_fields(mapping: Path) -> set[str]:
    import yaml

    m = yaml.safe_load(mapping.read_text(encoding="utf-8"))
    return {str(m[k]) for k in ("name", "brand", "group_by", "model_code", "range") if isinstance(m.get(k), str)}


def score(name: str, catalog: Path, work: Path, *, reuse: bool) -> dict:
    index = work / "index"
    if not (reuse and (index / "manifest.json").exists()):
        own.index_catalog(catalog, work)
    questions = ROOT / "bench/own_sets" / name / "questions.json"
    answers = own.answer(index, questions, "skg+tkg_fb", work)
    own.run("eval", "--questions", questions, "--answers", answers, "--report", work / "report")
    return json.loads((work / "report" / "metrics.json").read_text())["summary"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sets", nargs="+", help="own set names (folders under bench/own_sets/)")
    ap.add_argument("--locale", action="append", default=[], help="babel locale, e.g. de_DE (repeatable)")
    ap.add_argument("--out", type=Path, default=ROOT / "runs" / "locale_transfer")
    ap.add_argument("--reuse", action="store_true", help="answer over indexes already built under --out")
    ap.add_argument("--yes-no", action="store_true", help="also a catalogue whose Yes/No values are Y/N")
    ap.add_argument("--snake-keys", action="store_true", help="also a catalogue whose spec names are snake_case")
    ap.add_argument("--metric", action="store_true", help="also a catalogue whose imperial spec columns are metric")
    args = ap.parse_args()
    variants: list[tuple[str, Callable[[str], str]]] = [
        (loc, functools.partial(localise, locale=loc))
        for loc in (args.locale or ([] if args.yes_no or args.snake_keys or args.metric else ["de_DE"]))
    ]
    if args.yes_no:
        variants.append(("Y/N", yes_no_letters))
    if args.snake_keys:
        variants.append(("snake_keys", _KEYS))
    if args.metric:
        variants.append(("metric", _METRIC_UNITS))
    rows = []
    for name in args.sets:
        base = args.out / name / "as_written"
        catalog = base / "catalog"
        if not (catalog / "catalog.jsonl").exists():
            subprocess.run(
                [sys.executable, str(ROOT / "bench/own_sets" / name / "make_set.py"), "--out", str(catalog)],
                check=True, cwd=ROOT,
            )  # fmt: skip
        ref = score(name, catalog, base, reuse=args.reuse)
        rows.append((name, "as written", ref, ref))
        for label, rewrite in variants:
            work = args.out / name / label.replace("/", "")
            localise_catalog(catalog, work / "catalog", rewrite, _name_fields(catalog / "mapping.yaml"))
            rows.append((name, label, score(name, work / "catalog", work, reuse=args.reuse), ref))
    print(f"{'set':12s} {'catalogue':12s} {'overall':>8s} {'list F1':>8s} {'value':>8s} {'ratio':>6s}")
    for name, label, s, ref in rows:
        ratio = s["overall"] / ref["overall"] if ref["overall"] else float("nan")
        print(
            f"{name:12s} {label:12s} {s['overall']:8.3f} {_f(s['list_f1']):>8s} {_f(s['value_accuracy']):>8s} {ratio:6.2f}"
        )


def _f(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}"


if __name__ == "__main__":
    main()
