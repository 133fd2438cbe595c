"""A third first-contact set over the devmix catalog: new wording, written before any code change for it.

The catalog is devmix's (same builder, same seed: ``../devmix/make_set.py``); only the questions
are new. Where devmix and devmix_b mostly named an attribute the way the catalog does, this set
names it the way a shopper would ("selfie camera", "main sensor", "onboard storage", "ROM",
"cell capacity", "charging wattage", "how heavy", "panel refresh", "processor speed"), phrases
rupee prices in other ways ("under 15k rupees", "below Rs. 12,000", "at most INR 10,000",
"above 1 lakh rupees"), spells brands in lower case ("tecno", "iphones", "realme narzo"), reaches
product lines the earlier sets left alone (Galaxy M/F, Motorola Edge, Narzo, Nord, Reno, Vivo Y/T,
Realme GT, Oppo F/K) and brands they hardly used (Honor, HMD, Alcatel, CMF, Karbonn), compares
named products and two brands, and asks about the Icecat tablets, laptops, desktops and TVs as
well as the phones. The prose-only facts (NFC, IR blaster, memory card) are asked with new
phrasings ("tap-to-pay chip", "remote-control blaster", "card slot for extra storage", "can I add
a microSD card").

Gold is computed here from the source fields, never from the system's output, with devmix's
conventions: brand = first word of the name, case-insensitively; the Icecat Smartphones and
Mobile Phones count as phones (so an Icecat Samsung or LG phone answers a brand question when its
attribute table has the field); a page that says nothing about a feature neither has nor lacks
it; "under / below / less than" is strict, "at least / or more / no more than / at most"
inclusive; rupee prices compare only Smartprix phones, dollar prices only Icecat products.
Icecat products are named in the questions by a short unique part of their title; the gold is
the full title, as the catalog names them.

    python3 bench/own_sets/devmix_c/make_set.py [--out DIR] [--check] [--show]
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
MAX_LIST = 25  # list golds stay short enough to be answered and read


# ---- Icecat attributes, read as the catalog shows them ---------------------------------------------


def weight_g(i, key: str = "Weight") -> float | None:
    """An Icecat weight in grams ("218 g", "1.24 kg"); None when the field is missing."""
    m = re.fullmatch(r"([\d.]+)\s*(g|kg)", i.attrs.get(key, "").strip())
    return None if not m else float(m.group(1)) * (1000 if m.group(2) == "kg" else 1)


def inches(i) -> float | None:
    return dm.attr_number(i, "Display diagonal", '"')


def mah(i) -> float | None:
    return dm.attr_number(i, "Battery capacity", "mAh")


def gb(i, key: str) -> float | None:
    m = re.fullmatch(r"([\d.]+)\s*(GB|TB)", i.attrs.get(key, "").strip())
    return None if not m else float(m.group(1)) * (1024 if m.group(2) == "TB" else 1)


def num(i, key: str) -> float | None:
    m = re.fullmatch(r"([\d.]+)(?:\s*\S+)?", i.attrs.get(key, "").strip())
    return float(m.group(1)) if m else None


def build_questions(b) -> list[dict]:
    ph, it = b.phones, b.items
    L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
    nfc = lambda brand, v: [p.name for p in b.by(brand) if p.nfc is v]  # noqa: E731
    irb = lambda brand, v: [p.name for p in b.by(brand) if p.ir is v]  # noqa: E731
    crd = lambda brand, v: [p.name for p in b.by(brand) if p.card is v]  # noqa: E731
    cat = lambda c, brand=None: [i for i in it if i.category == c and (brand is None or i.brand == brand)]  # noqa: E731
    line = lambda brand, pattern: [p for p in b.by(brand) if re.search(pattern, p.name, re.I)]  # noqa: E731
    icephones = dm.icecat_phones(b)

    def item(part: str):
        """The one Icecat product whose title contains ``part``."""
        (x,) = [i for i in it if part in i.name]
        return x

    def phone(name: str):
        return b.phone_by_name(name)

    def add(question, category, method, *, names=None, value=None):
        """A question; a list gold is never empty and stays short (``MAX_LIST``)."""
        b.add(question, category, method, names=names, value=value, min_len=1, max_len=MAX_LIST)

    def num_value(v: float):
        v = round(v, 2)
        return int(v) if float(v).is_integer() else v

    def pair(question, category, method, x, y, key, *, low=False):
        """A comparison of two named products; refuses a tie or a missing value."""
        kx, ky = key(x), key(y)
        assert kx is not None and ky is not None and kx != ky, (question, kx, ky)
        add(question, category, method, value=(min if low else max)((x, y), key=key).name)

    def prose_pair(question, x, y, attr):
        """Which of two phones has a prose-only feature: exactly one page says it has it, the other that it lacks it."""
        assert {getattr(x, attr), getattr(y, attr)} == {True, False}, (question, x.name, y.name)
        add(question, G, "tkg", value=x.name if getattr(x, attr) else y.name)

    # ---- Inverse: one attribute or one prose fact across a scope ------------------------------------
    add("Which Philips televisions are listed?", L, "sparql", names=[i.name for i in cat("TVs", "Philips")])
    add(
        "Which desktop computers have 16 or more processor cores?",
        L,
        "sparql",
        names=[i.name for i in cat("PCs/Workstations") if (num(i, "Processor cores") or 0) >= 16],
    )
    add(
        "Which laptops weigh less than 1.25 kg?",
        L,
        "sparql",
        names=[i.name for i in cat("Laptops") if weight_g(i) is not None and weight_g(i) < 1250],
    )
    add(
        "Which handsets weigh more than 200 grams?",
        L,
        "sparql",
        names=[i.name for i in icephones if (weight_g(i) or 0) > 200],
    )
    add(
        "Which TVs have a screen smaller than 30 inches?",
        L,
        "sparql",
        names=[i.name for i in cat("TVs") if inches(i) is not None and inches(i) < 30],
    )
    add(
        "Which tablets have a 5 MP front-facing camera?",
        L,
        "sparql",
        names=[i.name for i in cat("Tablets") if dm.attr_number(i, "Front camera resolution (numeric)", "MP") == 5],
    )
    add(
        "Which phones have a cell capacity of 7,500 mAh or more?",
        L,
        "sparql",
        names=[p.name for p in ph if (dm.battery_mah(p) or 0) >= 7500]
        + [i.name for i in icephones if (mah(i) or 0) >= 7500],
    )
    add(
        "Which phones have a 42-megapixel selfie camera?",
        L,
        "sparql",
        names=[p.name for p in ph if dm.front_mp(p) == 42]
        + [i.name for i in icephones if dm.attr_number(i, "Front camera resolution (numeric)", "MP") == 42],
    )
    add("Which tecno handsets come with a tap-to-pay chip?", L, "tkg", names=nfc("tecno", True))
    add("Which Infinix phones have a remote-control blaster?", L, "tkg", names=irb("infinix", True))
    add("Which HMD phones have a card slot for extra storage?", L, "tkg", names=crd("hmd", True))
    add(
        "Which Google Pixel phones can't take a memory card?",
        L,
        "tkg",
        names=[n for n in crd("google", False) if "Pixel" in n],
    )
    add("Which Alcatel phones let you pay contactlessly?", L, "tkg", names=nfc("alcatel", True))
    add("Which Nothing Phone models have no room for a microSD card?", L, "tkg", names=crd("nothing", False))
    add("Which CMF phones are without an infrared blaster?", L, "tkg", names=irb("cmf", False))
    add("Which honor phones are sold without NFC?", L, "tkg", names=nfc("honor", False))
    add("Which OnePlus phones can I add a microSD card to?", L, "tkg", names=crd("oneplus", True))

    # ---- Multi-condition: a line or brand and one or more attributes ---------------------------------
    add(
        "Which tecno phones under 15k rupees have a 144 Hz panel?",
        M,
        "sparql",
        names=[p.name for p in b.by("tecno") if p.price and p.price < 15000 and dm.refresh_hz(p) == 144],
    )
    add(
        "Which Vivo Y-series phones cost no more than ₹12,000?",
        M,
        "sparql",
        names=[p.name for p in line("vivo", r"^Vivo Y\d") if p.price and p.price <= 12000],
    )
    add(
        "Which Galaxy M phones have a battery size of 6000 mAh or more?",
        M,
        "sparql",
        names=[p.name for p in line("samsung", r"Galaxy M\d") if (dm.battery_mah(p) or 0) >= 6000],
    )
    add(
        "Which Motorola Edge phones have a 50 MP front-facing camera?",
        M,
        "sparql",
        names=[p.name for p in line("motorola", r"\bEdge \d") if dm.front_mp(p) == 50],
    )
    add(
        "Which realme narzo phones below Rs. 12,000 support 5G?",
        M,
        "sparql",
        names=[p.name for p in line("realme", r"\bNarzo\b") if p.price and p.price < 12000 and dm.has5g(p)],
    )
    add(
        "Which OnePlus Nord phones have 256 GB of onboard storage?",
        M,
        "sparql",
        names=[p.name for p in line("oneplus", r"\bNord\b") if dm.storage_gb(p) == 256],
    )
    add(
        "Which iphones come with 12 GB of memory?",
        M,
        "sparql",
        names=[p.name for p in ph if "iPhone" in p.name and dm.ram_gb(p) == 12],
    )
    add(
        "Which Lava phones costing at most INR 10,000 have a display diagonal of 6.75 inches or more?",
        M,
        "sparql",
        names=[p.name for p in b.by("lava") if p.price and p.price <= 10000 and (dm.screen_in(p) or 0) >= 6.75],
    )
    add(
        "Which Poco phones have a 20 MP selfie camera and a charging wattage of at least 90 W?",
        M,
        "sparql",
        names=[p.name for p in b.by("poco") if dm.front_mp(p) == 20 and (dm.charging_w(p) or 0) >= 90],
    )
    add(
        "Which Samsung phones have a screen of 7 inches or larger?",
        M,
        "sparql",
        # the Icecat Galaxy Z Fold6 counts too: a Samsung phone with a display diagonal
        names=[p.name for p in b.by("samsung") if (dm.screen_in(p) or 0) >= 7]
        + [i.name for i in dm.icecat_phones(b, "Samsung") if (inches(i) or 0) >= 7],
    )
    add(
        "Which samsung phones weigh less than 150 g?",
        M,
        "sparql",
        names=[i.name for i in dm.icecat_phones(b, "Samsung") if weight_g(i) is not None and weight_g(i) < 150],
    )
    add(
        "Which LG handsets have a battery capacity below 2,000 mAh?",
        M,
        "sparql",
        names=[i.name for i in dm.icecat_phones(b, "LG") if mah(i) is not None and mah(i) < 2000]
        + [p.name for p in b.by("lg") if dm.battery_mah(p) is not None and dm.battery_mah(p) < 2000],
    )
    add(
        "Which Lenovo tablets pack at least 2 GB of RAM?",
        M,
        "sparql",
        names=[i.name for i in cat("Tablets", "Lenovo") if (gb(i, "Internal memory") or 0) >= 2],
    )
    add(
        "Which Lenovo laptops come with 32 GB of internal memory?",
        M,
        "sparql",
        names=[i.name for i in cat("Laptops", "Lenovo") if gb(i, "Internal memory") == 32],
    )
    add(
        "Which laptops under $1,000 have an SSD?",
        M,
        "sparql",
        names=[i.name for i in cat("Laptops") if i.price and i.price < 1000 and i.attrs.get("Storage media") == "SSD"],
    )
    add(
        "Which Infinix phones have a 108 MP main sensor?",
        M,
        "sparql",
        names=[p.name for p in b.by("infinix") if dm.main_rear_mp(p) == 108],
    )
    add(
        "Which Oppo F-series phones have a processor speed of 2.5 GHz or more?",
        M,
        "sparql",
        names=[p.name for p in line("oppo", r"^Oppo F\d") if (dm.clock_ghz(p) or 0) >= 2.5],
    )
    add(
        "Which Realme phones between Rs 20k and Rs 25k have a 144 Hz display?",
        M,
        "sparql",
        names=[p.name for p in b.by("realme") if p.price and 20000 <= p.price <= 25000 and dm.refresh_hz(p) == 144],
    )
    add(
        "Which phones under ₹40,000 have a 200 MP back camera?",
        M,
        "sparql",
        names=[p.name for p in ph if p.price and p.price < 40000 and dm.main_rear_mp(p) == 200],
    )
    add(
        "Which Vivo phones priced no more than ₹30,000 let me pay with a tap?",
        M,
        "tkg",
        names=[p.name for p in b.by("vivo") if p.nfc is True and p.price and p.price <= 30000],
    )
    add(
        "Which 8 GB RAM Tecno phones are missing NFC?",
        M,
        "tkg",
        names=[p.name for p in b.by("tecno") if p.nfc is False and dm.ram_gb(p) == 8],
    )
    add(
        "Which Lava 5G phones let me expand storage with a card?",
        M,
        "tkg",
        names=[p.name for p in b.by("lava") if p.card is True and dm.has5g(p)],
    )
    add(
        "Which Oppo Reno models offer NFC as well as an IR blaster?",
        M,
        "tkg",
        names=[p.name for p in line("oppo", r"\bReno\b") if p.nfc is True and p.ir is True],
    )
    add(
        "Which 5G Samsung Galaxy F phones support tap-to-pay?",
        M,
        "tkg",
        names=[p.name for p in line("samsung", r"Galaxy F\d") if p.nfc is True and dm.has5g(p)],
    )
    add(
        "Which Motorola phones with a 6000 mAh or bigger battery skip NFC?",
        M,
        "tkg",
        # the Icecat Motorola phones (650 and 850 mAh) say nothing about NFC either way
        names=[p.name for p in b.by("motorola") if p.nfc is False and (dm.battery_mah(p) or 0) >= 6000],
    )

    # ---- Group comparison: two named products (or two brands) ---------------------------------------
    pair(
        "Which weighs less, the Lenovo Tab S8-50LC or the Lenovo Idea Tab A5500?",
        G,
        "sparql",
        item("Lenovo Tab S8-50LC"),
        item("Lenovo Idea Tab A5500"),
        weight_g,
        low=True,
    )
    pair(
        "Which laptop has more memory, the DELL Inspiron 15R or the HP Compaq 6730b?",
        G,
        "sparql",
        item("DELL Inspiron 15R"),
        item("HP Compaq 6730b"),
        lambda i: gb(i, "Internal memory"),
    )
    pair(
        "Which TV is heavier without its stand: the Hisense 32A4K or the Philips 24PFL3108H/12?",
        G,
        "sparql",
        item("Hisense 32A4K"),
        item("24PFL3108H/12"),
        lambda i: weight_g(i, "Weight (without stand)"),
    )
    pair(
        "Which has the bigger display diagonal: the Samsung Galaxy Tab S6 Lite or the Samsung Galaxy Note 10.1?",
        G,
        "sparql",
        item("Galaxy Tab S6 Lite"),
        item("Galaxy Note 10.1"),
        inches,
    )
    pair(
        "Whose selfie camera has more megapixels, the Infinix Zero 40 5G's or the Tecno Camon 20 Pro 5G's?",
        G,
        "sparql",
        phone("Infinix Zero 40 5G"),
        phone("Tecno Camon 20 Pro 5G"),
        dm.front_mp,
    )
    pair(
        "Which one has more onboard storage, the Realme GT 7T or the Realme Narzo 80x 5G?",
        G,
        "sparql",
        phone("Realme GT 7T"),
        phone("Realme Narzo 80x 5G"),
        dm.storage_gb,
    )
    pair(
        "Which has the faster processor clock: Motorola Edge 60 Fusion or Samsung Galaxy F56 5G?",
        G,
        "sparql",
        phone("Motorola Edge 60 Fusion"),
        phone("Samsung Galaxy F56 5G"),
        dm.clock_ghz,
    )
    pair(
        "Honor X9c or Nothing Phone 3 5G: which one's cell capacity is larger?",
        G,
        "sparql",
        phone("Honor X9c"),
        phone("Nothing Phone 3 5G"),
        dm.battery_mah,
    )
    pair(
        "Which costs less: the HMD Crest Max or the Alcatel V3 Pro?",
        G,
        "sparql",
        phone("HMD Crest Max"),
        phone("Alcatel V3 Pro"),
        lambda p: p.price,
        low=True,
    )
    pair(
        "Which supports a higher charging wattage, the Infinix Note 40 Pro Plus Racing Edition or the Tecno Phantom V Flip 2?",
        G,
        "sparql",
        phone("Infinix Note 40 Pro Plus Racing Edition"),
        phone("Tecno Phantom V Flip 2"),
        dm.charging_w,
    )
    tecno, infinix = len(b.by("tecno")), len(b.by("infinix"))
    assert tecno != infinix
    add(
        "Which brand has more phones in the catalog, Tecno or Infinix?",
        G,
        "sparql",
        value="Tecno" if tecno > infinix else "Infinix",
    )
    prose_pair(
        "Which of these has a remote-control blaster: the Infinix Hot 60 5G or the Infinix Hot 60i 5G?",
        phone("Infinix Hot 60 5G"),
        phone("Infinix Hot 60i 5G"),
        "ir",
    )
    prose_pair(
        "Which one can take a microSD card: the Vivo Y39 5G or the Vivo Y29 5G?",
        phone("Vivo Y39 5G"),
        phone("Vivo Y29 5G"),
        "card",
    )
    prose_pair(
        "Of the Tecno Phantom V Flip and the Tecno Camon 20 Pro 5G, which can I use for tap-to-pay?",
        phone("Tecno Phantom V Flip"),
        phone("Tecno Camon 20 Pro 5G"),
        "nfc",
    )

    # ---- Reasoning: single facts read through a conversion, a difference or a paraphrase -------------
    x1 = item("ThinkPad X1 Carbon Gen 12")
    add("How many grams does the Lenovo ThinkPad X1 Carbon Gen 12 weigh?", R, "sparql", value=num_value(weight_g(x1)))
    add(
        "What is the display diagonal of the Samsung Galaxy Tab S6 Lite, in inches?",
        R,
        "sparql",
        value=num_value(inches(item("Galaxy Tab S6 Lite"))),
    )
    add(
        "What is the panel refresh rate of the LG 42CS460S TV, in Hz?",
        R,
        "sparql",
        value=num_value(num(item("LG 42CS460S"), "Native refresh rate")),
    )
    add(
        "How heavy is the HP Z2 G9 workstation, in kg?",
        R,
        "sparql",
        value=num_value(weight_g(item("HP Z2 G9")) / 1000),
    )
    add(
        "How many mAh is the Lenovo Tab 2 A10-70 tablet's battery rated at?",
        R,
        "sparql",
        value=num_value(mah(item("Lenovo Tab 2 A10-70"))),
    )
    add(
        "How many more mAh does the Lenovo Tab 2 A10-70 battery hold than the Lenovo Idea Tab A3300's?",
        R,
        "sparql",
        value=num_value(mah(item("Lenovo Tab 2 A10-70")) - mah(item("Lenovo Idea Tab A3300"))),
    )
    add(
        "How much ROM does the Infinix Zero 40 5G have, in GB?",
        R,
        "sparql",
        value=num_value(dm.storage_gb(phone("Infinix Zero 40 5G"))),
    )
    add(
        "What charging wattage does the Honor 200 Pro support?",
        R,
        "sparql",
        value=num_value(dm.charging_w(phone("Honor 200 Pro"))),
    )
    add(
        "What is the processor clock of the HMD Skyline 5G, in GHz?",
        R,
        "sparql",
        value=num_value(dm.clock_ghz(phone("HMD Skyline 5G"))),
    )
    add(
        "What is the primary camera resolution of the Alcatel V3 Ultra, in megapixels?",
        R,
        "sparql",
        value=num_value(dm.main_rear_mp(phone("Alcatel V3 Ultra"))),
    )
    add(
        "How much more does the Nothing Phone 3 5G cost than the Nothing Phone 3a Lite, in rupees?",
        R,
        "sparql",
        value=num_value(phone("Nothing Phone 3 5G").price - phone("Nothing Phone 3a Lite").price),
    )
    add(
        "I want to pay at the shop counter by tapping my phone. Which Samsung Galaxy M phones can do that?",
        R,
        "tkg",
        names=[p.name for p in line("samsung", r"Galaxy M\d") if p.nfc is True],
    )
    add(
        "Which Realme GT phones can I use to control my air conditioner?",
        R,
        "tkg",
        names=[p.name for p in b.by("realme") if p.name.startswith("Realme GT ") and p.ir is True],
    )
    add(
        "I'll want to add space later with a memory card: which Vivo T-series phones allow that?",
        R,
        "tkg",
        names=[p.name for p in line("vivo", r"^Vivo T\d") if p.card is True],
    )

    # ---- Aggregation: counts, averages, superlatives ------------------------------------------------
    add("How many TVs does the store carry?", A, "sparql", value=len(cat("TVs")))
    lenovo_tabs = [weight_g(i) for i in cat("Tablets", "Lenovo")]
    assert None not in lenovo_tabs
    add(
        "What is the average weight of the Lenovo tablets, in grams?",
        A,
        "sparql",
        value=num_value(sum(lenovo_tabs) / len(lenovo_tabs)),
    )
    light, _ = b.best(cat("Laptops"), weight_g, low=True)
    b.add_best("Which is the lightest laptop in the catalog?", A, "sparql", light)
    big, _ = b.best(cat("Tablets", "Samsung"), mah)
    b.add_best("Among Samsung's tablets, which one's battery holds the most mAh?", A, "sparql", big)
    heavy, _ = b.best(cat("TVs"), lambda i: weight_g(i, "Weight (without stand)"))
    b.add_best("Which TV is the heaviest without its stand?", A, "sparql", heavy)
    add(
        "What is the highest selfie camera resolution among Tecno phones, in MP?",
        A,
        "sparql",
        value=b.top_value(b.by("tecno"), dm.front_mp),
    )
    add(
        "What's the top charging wattage of any vivo phone?",
        A,
        "sparql",
        value=b.top_value(b.by("vivo"), dm.charging_w),
    )
    add(
        "How many HMD phones cost below Rs. 2,000?",
        A,
        "sparql",
        value=len([p for p in b.by("hmd") if p.price and p.price < 2000]),
    )
    alcatel = [dm.battery_mah(p) for p in b.by("alcatel")]
    assert None not in alcatel
    add(
        "What is the average cell capacity of the Alcatel phones, in mAh?",
        A,
        "sparql",
        value=num_value(sum(alcatel) / len(alcatel)),
    )
    big, _ = b.best(b.by("honor"), dm.battery_mah)
    b.add_best("Which Honor phone packs the biggest cell?", A, "sparql", big)
    cheap, _ = b.best([p for p in b.by("nothing") if dm.ram_gb(p) == 12], lambda p: p.price, low=True)
    b.add_best("What's the least expensive Nothing phone that has 12 GB of RAM?", A, "sparql", cheap)
    add(
        "How many Oppo K-series phones have a 7000 mAh battery?",
        A,
        "sparql",
        value=len([p for p in line("oppo", r"^Oppo K\d") if dm.battery_mah(p) == 7000]),
    )
    add(
        "What is the largest display among Infinix phones, in inches?",
        A,
        "sparql",
        value=b.top_value(b.by("infinix"), dm.screen_in),
    )
    add(
        "How many iPhones are priced above 1 lakh rupees?",
        A,
        "sparql",
        value=len([p for p in ph if "iPhone" in p.name and p.price and p.price > 100000]),
    )
    add(
        "What's the highest processor clock among Tecno phones, in GHz?",
        A,
        "sparql",
        value=b.top_value(b.by("tecno"), dm.clock_ghz),
    )
    add(
        "How many desktop PCs and workstations does Lenovo offer?",
        A,
        "sparql",
        value=len(cat("PCs/Workstations", "Lenovo")),
    )
    add(
        "How many phones in the shop run iOS 26?",
        A,
        "sparql",
        value=len([p for p in ph if p.raw["os"].strip() == "iOS v26"])
        + len([i for i in icephones if i.attrs.get("Operating system installed", "").startswith("iOS 26")]),
    )
    add(
        "What's the starting price of CMF phones, in rupees?",
        A,
        "sparql",
        value=b.top_value(b.by("cmf"), lambda p: p.price, low=True),
    )
    add("How many tecno phones can work as an infrared remote control?", A, "tkg", value=len(irb("tecno", True)))
    add("How many Google phones support tap-to-pay?", A, "tkg", value=len(nfc("google", True)))
    add("How many Karbonn handsets let you slot in a memory card?", A, "tkg", value=len(crd("karbonn", True)))
    return b.out


def main() -> None:
    dm.main(build_questions, QUESTIONS, __doc__)


if __name__ == "__main__":
    main()
