"""A fourth first-contact set over the devmix catalog ("devmix_d"), written before any code change for it.

The catalog is devmix's (same builder, same seed: ``../devmix/make_set.py``); only the questions
are new. It leans on what the earlier sets left alone: the small feature-phone brands (Jio,
Snexian, Hotline, GFive, Foneme, BlackZone, Peace, Ikall, Ringme, MTR, Nokia, Micromax), chip
families and operating-system versions named inside raw strings ("Dimensity", "Snapdragon",
"Android v15"), the shop's rating score, screen resolution, coded network terms worded as a
shopper would ("4G-only", "5G-ready", "without 5G"), prose facts with negations in new wording
("missing", "doesn't offer", "lacks"), and superlatives, averages and counts scoped to a brand or
a price band.

Gold is computed here from the source fields (the raw Smartprix columns and the page facts the
builder wrote), never from the system's output, with devmix's conventions: brand = the name's
first word, case-insensitively; a page that says nothing about a feature neither has nor lacks
it; "under / below / less than / cheaper than" are strict, "at least / or more / at most / up to"
inclusive; rupee prices compare only Smartprix phones. Superlatives refuse ties between different
models (a tie of variants becomes a list gold).

    python3 bench/own_sets/devmix_d/make_set.py [--out DIR] [--check] [--show]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from shared import AGGREGATION, GROUP, INVERSE, MULTI, REASONING  # noqa: E402
from shared import devmix as dm  # noqa: E402

QUESTIONS = HERE / "questions.json"
MAX_LIST = 25


def rating(p) -> float | None:
    v = p.raw.get("rating", "").strip()
    return float(v) if re.fullmatch(r"\d+(\.\d+)?", v) else None


def android(p) -> int | None:
    m = re.fullmatch(r"Android v(\d+)(?:\.\d+)?", p.raw["os"].strip())
    return int(m.group(1)) if m else None


def chip(p) -> str:
    """The chip family: the first item of the processor string ("Dimensity 7300, Octa Core, ...")."""
    return p.raw["processor"].split(",")[0].strip()


def cores(p) -> str:
    m = re.search(r"\b(\w+) Core\b", p.raw["processor"])
    return m.group(1).lower() if m else ""


def width_px(p) -> float | None:
    return p.num("display", r"(\d+)\s*x\s*\d+\s*px")


def height_px(p) -> float | None:
    return p.num("display", r"\d+\s*x\s*(\d+)\s*px")


def connectivity(p) -> list[str]:
    return [c.strip() for c in p.raw["connectivity"].split(",") if c.strip()]


def build_questions(b) -> list[dict]:
    L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
    by = b.by

    def add(question, category, method, *, names=None, value=None):
        b.add(question, category, method, names=names, value=value, min_len=1, max_len=MAX_LIST)

    def names(pool, cond):
        return [p.name for p in pool if cond(p)]

    def price(p) -> float | None:
        return p.price

    def pair(question, category, x, y, key, *, low=False, method="sparql"):
        x, y = b.phone_by_name(x), b.phone_by_name(y)
        kx, ky = key(x), key(y)
        assert kx is not None and ky is not None and kx != ky, (question, kx, ky)
        add(question, category, method, value=(min if low else max)((x, y), key=key).name)

    def best(question, category, pool, key, *, low=False):
        winners, _ = b.best(pool, key, low=low)
        assert len({w.name.split("(")[0].strip() for w in winners}) == 1, (question, [w.name for w in winners])
        b.add_best(question, category, "sparql", winners)

    def average(pool, key):
        vals = [key(p) for p in pool if key(p) is not None]
        return round(sum(vals) / len(vals), 1)

    # ---- Inverse: one fact across a brand ----------------------------------------------------------
    add("Which Jio phones are listed?", L, "sparql", names=names(by("jio"), lambda p: True))
    add(
        "Which Snexian phones have a rating of 14 or above?",
        L,
        "sparql",
        names=names(by("snexian"), lambda p: (rating(p) or 0) >= 14),
    )
    add(
        "Which Poco handsets use a Snapdragon chip?",
        L,
        "sparql",
        names=names(by("poco"), lambda p: chip(p).startswith("Snapdragon")),
    )
    add(
        "Which iQOO phones run on a Dimensity processor?",
        L,
        "sparql",
        names=names(by("iqoo"), lambda p: chip(p).startswith("Dimensity")),
    )
    add(
        "Which Motorola phones ship with Android 15?",
        L,
        "sparql",
        names=names(by("motorola"), lambda p: android(p) == 15),
    )
    add(
        "Which Vivo phones are 4G-only, without 5G?",
        L,
        "sparql",
        names=names(by("vivo"), lambda p: "4G" in connectivity(p) and "5G" not in connectivity(p)),
    )
    add("Which Lava phones are 5G-ready?", L, "sparql", names=names(by("lava"), dm.has5g))
    add("Which Nokia phones are 4G-capable?", L, "sparql", names=names(by("nokia"), lambda p: "4G" in connectivity(p)))
    add(
        "Which Itel phones have an octa-core processor?",
        L,
        "sparql",
        names=names(by("itel"), lambda p: cores(p) == "octa"),
    )
    add("Which Xiaomi phones are missing NFC?", L, "tkg", names=[p.name for p in by("xiaomi") if p.nfc is False])
    add(
        "Which Nothing phones don't offer an IR blaster?",
        L,
        "tkg",
        names=[p.name for p in by("nothing") if p.ir is False],
    )
    add("Which iQOO phones lack a memory card slot?", L, "tkg", names=[p.name for p in by("iqoo") if p.card is False])
    add("Which Poco phones come with an IR emitter?", L, "tkg", names=[p.name for p in by("poco") if p.ir is True])
    add("Which Jio phones take a microSD card?", L, "tkg", names=[p.name for p in by("jio") if p.card is True])

    # ---- Multi-condition ---------------------------------------------------------------------------
    add(
        "Which Vivo phones under ₹20,000 have a 6500 mAh battery or larger?",
        M,
        "sparql",
        names=names(by("vivo"), lambda p: (price(p) or 1e9) < 20000 and (dm.battery_mah(p) or 0) >= 6500),
    )
    add(
        "Which Oppo phones with 12 GB RAM cost less than 35,000 rupees?",
        M,
        "sparql",
        names=names(by("oppo"), lambda p: dm.ram_gb(p) == 12 and (price(p) or 1e9) < 35000),
    )
    add(
        "Which Realme phones have 5G, a 120 Hz screen, 8 GB of RAM and a price below ₹15,000?",
        M,
        "sparql",
        names=names(
            by("realme"),
            lambda p: dm.has5g(p) and dm.refresh_hz(p) == 120 and dm.ram_gb(p) == 8 and (price(p) or 1e9) < 15000,
        ),
    )
    add(
        "Which Samsung phones have a 50 MP main camera and at least 12 GB of RAM?",
        M,
        "sparql",
        names=names(by("samsung"), lambda p: dm.main_rear_mp(p) == 50 and (dm.ram_gb(p) or 0) >= 12),
    )
    add(
        "Which Xiaomi phones charge at 90 W or faster and cost up to ₹40,000?",
        M,
        "sparql",
        names=names(by("xiaomi"), lambda p: (dm.charging_w(p) or 0) >= 90 and (price(p) or 1e9) <= 40000),
    )
    add(
        "Which Tecno phones with a Dimensity chip have 256 GB of storage?",
        M,
        "sparql",
        names=names(by("tecno"), lambda p: chip(p).startswith("Dimensity") and dm.storage_gb(p) == 256),
    )
    add(
        "Which Infinix phones have a screen of 6.7 inches or more and a 144 Hz refresh rate?",
        M,
        "sparql",
        names=names(by("infinix"), lambda p: (dm.screen_in(p) or 0) >= 6.7 and dm.refresh_hz(p) == 144),
    )
    add(
        "Which Apple phones cost under ₹70,000?",
        M,
        "sparql",
        names=names(by("apple"), lambda p: (price(p) or 1e9) < 70000),
    )
    add(
        "Which Vivo phones without NFC cost less than 15000 rupees?",
        M,
        "tkg",
        names=[p.name for p in by("vivo") if p.nfc is False and (price(p) or 1e9) < 15000],
    )
    add(
        "Which Realme phones under ₹10,000 lack an infrared blaster?",
        M,
        "tkg",
        names=[p.name for p in by("realme") if p.ir is False and (price(p) or 1e9) < 10000],
    )
    add(
        "Which Samsung phones with a 6000 mAh battery support expandable storage?",
        M,
        "tkg",
        names=[p.name for p in by("samsung") if p.card is True and dm.battery_mah(p) == 6000],
    )
    add(
        "Which Poco phones with an IR blaster cost under ₹15,000?",
        M,
        "tkg",
        names=[p.name for p in by("poco") if p.ir is True and (price(p) or 1e9) < 15000],
    )
    add(
        "Which Oppo phones with a Snapdragon processor run Android 15?",
        M,
        "sparql",
        names=names(by("oppo"), lambda p: chip(p).startswith("Snapdragon") and android(p) == 15),
    )

    # ---- Group comparison: two named phones ----------------------------------------------------------
    pair("Which is rated higher, the Poco C75 5G or the iQOO Z10R?", G, "Poco C75 5G", "iQOO Z10R", rating)
    pair(
        "Which has more pixels along its screen's long side: OnePlus 13s 5G or Nothing Phone 3a Pro?",
        G,
        "OnePlus 13s 5G",
        "Nothing Phone 3a Pro",
        height_px,
    )
    pair(
        "Between the Vivo Y19s 5G and the Oppo K13 Turbo Pro, which one has the bigger battery?",
        G,
        "Vivo Y19s 5G",
        "Oppo K13 Turbo Pro",
        dm.battery_mah,
    )
    pair(
        "Which costs less, Infinix GT 30 5G or Realme P3 Lite 5G?",
        G,
        "Infinix GT 30 5G",
        "Realme P3 Lite 5G",
        price,
        low=True,
    )
    pair("Jio Bharat V3 or Nokia 105 2023: which is cheaper?", G, "Jio Bharat V3", "Nokia 105 2023", price, low=True)
    pair(
        "Which charges quicker: the Motorola Moto G96 5G or the Infinix GT 30 5G?",
        G,
        "Motorola Moto G96 5G",
        "Infinix GT 30 5G",
        dm.charging_w,
    )
    pair(
        "Which has more memory, the Poco M7 Plus 5G or the Realme 15T 5G?",
        G,
        "Poco M7 Plus 5G",
        "Realme 15T 5G",
        dm.ram_gb,
    )
    pair(
        "Which one has a higher-resolution front camera: Oppo F31 Pro Plus 5G or Vivo Y31 Pro 5G?",
        G,
        "Oppo F31 Pro Plus 5G",
        "Vivo Y31 Pro 5G",
        dm.front_mp,
    )
    pair(
        "Which is lighter on the wallet, the Apple iPhone 16e or the Google Pixel 9A?",
        G,
        "Apple iPhone 16e",
        "Google Pixel 9A",
        price,
        low=True,
    )
    pair(
        "Which screen refreshes faster, the Motorola Razr 60 Ultra or the OnePlus Open 5G Apex Edition?",
        G,
        "Motorola Razr 60 Ultra",
        "OnePlus Open 5G Apex Edition",
        dm.refresh_hz,
    )

    # ---- Reasoning: superlatives in a scope -----------------------------------------------------------
    best("Which Poco phone has the largest battery?", R, by("poco"), dm.battery_mah)
    best("Which is the cheapest iQOO phone?", R, by("iqoo"), price, low=True)
    best("Which Samsung phone has the highest rating?", R, by("samsung"), rating)
    best("Which Jio phone has the biggest display?", R, by("jio"), dm.screen_in)
    best("Which Apple phone is the most expensive?", R, by("apple"), price)
    best("Which Lava phone is the most expensive?", R, by("lava"), price)
    best("Which OnePlus phone has the biggest battery?", R, by("oneplus"), dm.battery_mah)
    best("Among Nothing phones, which one costs the most?", R, by("nothing"), price)
    best("Which is the cheapest Vivo phone with 5G?", R, [p for p in by("vivo") if dm.has5g(p)], price, low=True)
    best("Which Motorola phone has the highest processor clock speed?", R, by("motorola"), dm.clock_ghz)
    best("Which Snexian phone has the smallest battery?", R, by("snexian"), dm.battery_mah, low=True)

    # ---- Aggregation -------------------------------------------------------------------------------
    add(
        "How many Oppo phones are 4G-only?",
        A,
        "sparql",
        value=len(names(by("oppo"), lambda p: "4G" in connectivity(p) and "5G" not in connectivity(p))),
    )
    add(
        "How many Samsung phones cost under ₹15,000?",
        A,
        "sparql",
        value=len(names(by("samsung"), lambda p: (price(p) or 1e9) < 15000)),
    )
    add(
        "How many Vivo phones have a 120 Hz display?",
        A,
        "sparql",
        value=len(names(by("vivo"), lambda p: dm.refresh_hz(p) == 120)),
    )
    add(
        "What is the average battery capacity of Oppo phones, in mAh?",
        A,
        "sparql",
        value=average(by("oppo"), dm.battery_mah),
    )
    add("What is the average price of Google phones, in rupees?", A, "sparql", value=average(by("google"), price))
    add("What is the highest rating any Xiaomi phone has?", A, "sparql", value=b.top_value(by("xiaomi"), rating))
    add(
        "What is the lowest price of a Tecno phone, in INR?",
        A,
        "sparql",
        value=b.top_value(by("tecno"), price, low=True),
    )
    add(
        "How many Motorola phones run Android 15?",
        A,
        "sparql",
        value=len(names(by("motorola"), lambda p: android(p) == 15)),
    )
    add(
        "How many Infinix phones have a Dimensity chip?",
        A,
        "sparql",
        value=len(names(by("infinix"), lambda p: chip(p).startswith("Dimensity"))),
    )
    add("How many Samsung phones lack NFC?", A, "tkg", value=len([p for p in by("samsung") if p.nfc is False]))
    add("How many Xiaomi phones have an IR blaster?", A, "tkg", value=len([p for p in by("xiaomi") if p.ir is True]))
    add(
        "How many Vivo phones can't take a memory card?",
        A,
        "tkg",
        value=len([p for p in by("vivo") if p.card is False]),
    )
    add(
        "What is the largest screen size among Lava phones, in inches?",
        A,
        "sparql",
        value=b.top_value(by("lava"), dm.screen_in),
    )
    add(
        "How many Apple phones have 256 GB of storage?",
        A,
        "sparql",
        value=len(names(by("apple"), lambda p: dm.storage_gb(p) == 256)),
    )
    return b.out


def main() -> None:
    dm.main(build_questions, QUESTIONS, __doc__)


if __name__ == "__main__":
    main()
