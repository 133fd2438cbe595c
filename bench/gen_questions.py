"""Questions in the shapes shoppers ask, for throughput runs on a generated catalog.

    .venv/bin/python bench/gen_questions.py OUT.json [--n 400] [--seed 0] [--heavy]

They carry no gold: a generated catalog is for measuring speed (``bench/profile_ask.py``,
``dualgraph ask --questions``), never for scoring. The templates cover what the catalog of
``bench/gen_catalog.py`` holds — categories, prices, numbers with units, yes/no features,
dates, prose-only features, superlatives and counts — so every stage of answering runs.
Same arguments, same file.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

CATEGORIES = ["phones", "tablets", "laptops", "headphones", "smartwatches", "TVs"]
TEMPLATES = [
    "Which {cat} cost under {price} pounds?",
    "Which {cat} have at least {mah} mAh of battery?",
    "{cat} with a screen of at least {inch} inches and 5G?",
    "Which {cat} support wireless charging?",
    "Which {cat} lack NFC?",
    "What is the cheapest of the {cat}?",
    "Which {cat} have a refresh rate of {hz} Hz or more?",
    "How many {cat} were released in {year}?",
    "Which {cat} were announced after {month} {year}?",
    "Which {cat} are water resistant?",
    "{cat} with {ram} GB RAM under {price} pounds?",
    "Which {cat} weigh less than {grams} grams?",
    "Which of the {cat} has the biggest battery?",
    "Is there a {cat_one} with a headphone jack and at least {mah} mAh?",
    "Which {cat} have a touchscreen?",
    "Which {cat} come in {colour}?",
]
# questions on the data sheet of ``gen_catalog.py --heavy`` (ranges, counts, classes, yes/no entries)
HEAVY_TEMPLATES = [
    "Which {cat} can operate at {temp} °C?",
    "Which {cat} have at least {ports} USB Type-C ports?",
    "Which {cat} have energy efficiency class {klass}?",
    "Which {cat} draw less than {watts} W in standby?",
    "Which {cat} have a child lock and auto power off?",
    "Which {cat} are made in {country}?",
    "Which {cat} have a warranty of {years} years?",
    "Which {cat} have a package weight under {kg} kg?",
    "What is the quietest of the {cat}?",
    "Which {cat} are wall mountable and under {price} pounds?",
]
COLOURS = ["Midnight Black", "Glacier White", "Ocean Blue", "Sage Green", "Silver"]
MONTHS = ["January", "March", "June", "September", "November"]


def questions(n: int, seed: int = 0, *, heavy: bool = False) -> dict[str, dict[str, str]]:
    """``n`` questions; ``heavy``: a third of them ask the data sheet of a ``--heavy`` catalog.
    Without ``heavy`` the file is what it always was for the same seed."""
    r = random.Random(seed)
    extra = random.Random(seed + 1)  # the data-sheet draws leave ``r``'s sequence as it was
    out: dict[str, dict[str, str]] = {}
    for i in range(n):
        cat = r.choice(CATEGORIES)
        template = r.choice(TEMPLATES)
        if heavy and extra.random() < 1 / 3:
            template = extra.choice(HEAVY_TEMPLATES).format(
                cat="{cat}",
                temp=extra.choice([-10, 0, 45]),
                ports=extra.choice([1, 2, 3]),
                klass=extra.choice("ABCD"),
                watts=extra.choice([0.5, 1, 2]),
                country=extra.choice(["Vietnam", "Germany", "Taiwan"]),
                years=extra.choice([1, 2, 3]),
                kg=extra.choice([1, 5, 10]),
                price="{price}",
            )
        text = template.format(
            cat=cat,
            cat_one=cat.rstrip("s"),
            price=r.choice([150, 300, 500, 800, 1200]),
            mah=r.choice([3000, 4000, 4500, 5000, 6000]),
            inch=r.choice([6, 6.5, 11, 14, 55]),
            hz=r.choice([90, 120, 144]),
            year=r.randrange(2019, 2026),
            month=r.choice(MONTHS),
            ram=r.choice([4, 8, 12, 16]),
            grams=r.choice([50, 200, 1500]),
            colour=r.choice(COLOURS),
        )
        out[f"g{i:05d}"] = {"question": text[0].upper() + text[1:]}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--heavy", action="store_true", help="a third ask the data sheet of a --heavy catalog")
    args = ap.parse_args(argv)
    args.out.write_text(json.dumps(questions(args.n, args.seed, heavy=args.heavy), indent=1), encoding="utf-8")
    print(f"{args.n} questions -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
