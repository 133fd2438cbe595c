"""A second first-contact set over the devmix catalog, written after the devmix fixes: other
brands, attributes and wordings, so its score is evidence, not a ceiling.

The catalog is devmix's (same builder, same seed: ``../devmix/make_set.py``); only the questions
are new. Gold is computed here from the source fields, with devmix's conventions (brand = first
word of the name, case-insensitively; Icecat Samsung phones count as phones; a page that says
nothing about a feature neither has nor lacks it).

    python3 bench/own_sets/devmix_b/make_set.py [--out DIR] [--check] [--show]
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from shared import AGGREGATION, GROUP, INVERSE, MULTI, REASONING  # noqa: E402
from shared import devmix as dm  # noqa: E402

QUESTIONS = HERE / "questions.json"


def build_questions(b) -> list[dict]:
    ph = b.phones
    L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
    nfc = lambda brand, v: [p.name for p in b.by(brand) if p.nfc is v]  # noqa: E731
    irb = lambda brand, v: [p.name for p in b.by(brand) if p.ir is v]  # noqa: E731
    crd = lambda brand, v: [p.name for p in b.by(brand) if p.card is v]  # noqa: E731
    cat = lambda c, brand=None: [i.name for i in b.items if i.category == c and (brand is None or i.brand == brand)]  # noqa: E731

    # scope
    b.add("Show me every Lenovo tablet.", L, "sparql", names=cat("Tablets", "Lenovo"))
    b.add("Which TV wall mounts does Chief make?", L, "sparql", names=cat("TV Mounts & Stands", "Chief"))
    b.add("How many Honor phones are there?", A, "sparql", value=len(b.by("honor")))
    b.add("List the Redmi Note models.", L, "sparql", names=[p.name for p in ph if "Redmi Note" in p.name])
    b.add(
        "How many Galaxy Z phones are listed?",
        A,
        "sparql",
        value=len([p for p in ph if re.search(r"Galaxy Z ", p.name)]),
    )
    b.add(
        "Which tecno phones sell for less than ₹10,000?",
        M,
        "sparql",
        names=[p.name for p in b.by("tecno") if p.price and p.price < 10000],
    )
    b.add(
        "Which Vivo phones are priced between ₹20,000 and ₹25,000?",
        M,
        "sparql",
        names=[p.name for p in b.by("vivo") if p.price and 20000 <= p.price <= 25000],
    )
    low, _ = b.best(b.by("infinix"), lambda p: p.price, low=True)
    b.add_best("Which is the cheapest Infinix phone?", A, "sparql", low)

    # attributes
    b.add(
        "Which Realme phones come with 16 GB of RAM?",
        M,
        "sparql",
        names=[p.name for p in b.by("realme") if dm.ram_gb(p) == 16],
    )
    b.add(
        "Which iQOO phones have a battery of 7000 mAh or more?",
        M,
        "sparql",
        names=[p.name for p in b.by("iqoo") if (dm.battery_mah(p) or 0) >= 7000],
    )
    b.add(
        "Which Oppo phones support at least 80W charging?",
        M,
        "sparql",
        names=[p.name for p in b.by("oppo") if (dm.charging_w(p) or 0) >= 80],
    )
    b.add(
        "Which Samsung phones have a front camera of 32 MP or more?",
        M,
        "sparql",
        names=[p.name for p in b.by("samsung") if (dm.front_mp(p) or 0) >= 32]
        + [
            i.name
            for i in dm.icecat_phones(b, "Samsung")
            if (dm.attr_number(i, "Front camera resolution (numeric)", "MP") or 0) >= 32
        ],
        min_len=0,
    )
    b.add(
        "Which Poco phones have a 144 Hz screen?",
        M,
        "sparql",
        names=[p.name for p in b.by("poco") if dm.refresh_hz(p) == 144],
        min_len=0,
    )
    b.add(
        "Which Motorola phones have a display under 6.5 inches?",
        M,
        "sparql",
        names=[p.name for p in b.by("motorola") if dm.screen_in(p) and dm.screen_in(p) < 6.5],
    )
    b.add(
        "Which OnePlus phones have 1 TB of storage?",
        M,
        "sparql",
        names=[p.name for p in b.by("oneplus") if dm.storage_gb(p) == 1024],
    )
    b.add(
        "Which Lava phones run Android 15?",
        M,
        "sparql",
        names=[p.name for p in b.by("lava") if re.fullmatch(r"Android v15", p.raw["os"].strip())],
    )
    b.add(
        "Which Google phones have a processor faster than 3 GHz?",
        M,
        "sparql",
        names=[p.name for p in b.by("google") if (dm.clock_ghz(p) or 0) > 3],
        min_len=0,
    )
    b.add(
        "Which phones under ₹15,000 have a 6000 mAh battery or bigger and 5G?",
        M,
        "sparql",
        names=[p.name for p in ph if p.price and p.price < 15000 and (dm.battery_mah(p) or 0) >= 6000 and dm.has5g(p)],
    )

    # superlatives and aggregates
    b.add("What is the most RAM any Vivo phone has, in GB?", A, "sparql", value=b.top_value(b.by("vivo"), dm.ram_gb))
    b.add(
        "What is the highest refresh rate of any Realme phone?",
        A,
        "sparql",
        value=b.top_value(b.by("realme"), dm.refresh_hz),
    )
    b.add(
        "What is the smallest battery among Apple phones, in mAh?",
        A,
        "sparql",
        value=b.top_value(b.by("apple"), dm.battery_mah, low=True),
    )
    big, _ = b.best(b.by("lava"), dm.battery_mah)
    b.add_best("Which Lava phone has the biggest battery?", A, "sparql", big)
    fast, _ = b.best(b.by("realme"), dm.charging_w)
    b.add_best("Which Realme phone charges the fastest?", A, "sparql", fast)
    b.add(
        "How many Xiaomi phones cost more than ₹30,000?",
        A,
        "sparql",
        value=len([p for p in b.by("xiaomi") if (p.price or 0) > 30000]),
    )
    b.add(
        "What is the price of the most expensive OnePlus phone, in rupees?",
        A,
        "sparql",
        value=b.top_value(b.by("oneplus"), lambda p: p.price),
    )

    # prose-only facts, other wordings
    b.add("Which Realme phones lack NFC?", L, "tkg", names=nfc("realme", False), max_len=120)
    b.add("Which Samsung phones are missing an IR blaster?", L, "tkg", names=irb("samsung", False), max_len=120)
    b.add("Which Motorola phones have expandable storage?", L, "tkg", names=crd("motorola", True))
    b.add("How many Vivo phones support NFC?", A, "tkg", value=len(nfc("vivo", True)))
    b.add("Which Poco phones come without NFC?", L, "tkg", names=nfc("poco", False))
    b.add("Which OnePlus phones have an infrared emitter?", L, "tkg", names=irb("oneplus", True), min_len=0)
    b.add("Which iQOO phones have a microSD slot?", L, "tkg", names=crd("iqoo", True), min_len=0)
    b.add("How many Infinix phones have no memory card support?", A, "tkg", value=len(crd("infinix", False)))
    b.add(
        "Which Xiaomi phones with 8 GB of RAM or more have NFC?",
        M,
        "tkg",
        names=[p.name for p in b.by("xiaomi") if p.nfc is True and (dm.ram_gb(p) or 0) >= 8],
        min_len=0,
    )
    b.add(
        "Which Realme phones under ₹20,000 have an IR blaster?",
        M,
        "tkg",
        names=[p.name for p in b.by("realme") if p.ir is True and p.price and p.price < 20000],
        min_len=0,
    )

    # comparisons and single facts
    rng = random.Random(23)

    def pick(pool, key):
        pool = [p for p in pool if key(p) is not None and "(" not in p.name]
        for _ in range(200):
            x, y = rng.sample(pool, 2)
            if key(x) != key(y):
                return x, y
        raise AssertionError("no pair")

    x, y = pick(b.by("lava") + b.by("itel"), dm.battery_mah)
    b.add(
        f"Which lasts longer on battery capacity, {x.name} or {y.name}?",
        G,
        "sparql",
        value=max((x, y), key=dm.battery_mah).name,
    )
    x, y = pick(b.by("samsung"), lambda p: p.price)
    b.add(
        f"Is the {x.name} or the {y.name} more expensive?", G, "sparql", value=max((x, y), key=lambda p: p.price).name
    )
    x, y = pick(b.by("oppo") + b.by("realme"), dm.screen_in)
    b.add(f"Which has the smaller screen: {x.name} or {y.name}?", G, "sparql", value=min((x, y), key=dm.screen_in).name)
    p = rng.choice([p for p in b.by("xiaomi") if dm.battery_mah(p) and "(" not in p.name])
    b.add(f"How big is the battery of the {p.name}, in mAh?", R, "sparql", value=int(dm.battery_mah(p)))
    p = rng.choice([p for p in b.by("motorola") if dm.screen_in(p) and "(" not in p.name])
    b.add(f"What is the screen size of the {p.name} in inches?", R, "sparql", value=dm.screen_in(p))
    p = rng.choice([p for p in b.by("vivo") if p.price and "(" not in p.name])
    b.add(f"How much does the {p.name} cost?", R, "sparql", value=int(p.price))
    return b.out


def main() -> None:
    dm.main(build_questions, QUESTIONS, __doc__)


if __name__ == "__main__":
    main()
