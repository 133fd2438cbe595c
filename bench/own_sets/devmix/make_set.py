"""A first-contact question set over a catalog nobody tuned for: "devmix".

The catalog mixes two sources the way a multi-category shop does:

* every raw Smartprix phone row (``smartphones_raw.csv``, spec strings as the shop writes them,
  prices in INR, no brand column) under the category "Smartphones";
* every Open Icecat product (phones, tablets, laptops, PCs, TVs, cases, mounts, spare parts; USD)
  with its attribute table and its marketing description.

Three facts of each Smartprix phone are taken out of the spec table and written only as prose on
its page, several phrasings each, positive and negative, sometimes not at all (unknown): NFC,
the IR blaster and memory-card support. Gold answers are computed here from the source fields
(and from which statement the page got), never from the system's output.

    python3 bench/own_sets/devmix/make_set.py --out runs/devmix        # catalog.jsonl + mapping.yaml
    python3 bench/own_sets/devmix/make_set.py --check                 # questions.json up to date?

Conventions (the Icecat brand convention was corrected after first contact: the feed's brand
field sometimes names the mount vendor, not the product's maker): "under / less than" is strict, "at least / or more" inclusive; a phone whose page
says nothing about a feature neither has nor lacks it; a brand is the first word of the model
name, case-insensitively ("OPPO" = "Oppo"); "phones" are the Smartphones and Mobile Phones
categories; prices compare within one currency (phones in INR, Icecat products in USD).
"""

from __future__ import annotations

import argparse
import ast
import csv
import json
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2].parent / "shared" / "data"
QUESTIONS = HERE / "questions.json"

PHONE_CATS = {"Smartphones", "Mobile Phones"}

# Phrasings of the prose-only facts. Written before any code reads them; questions use other words.
SAYS = {
    ("nfc", True): [
        "It supports NFC, so contactless payments work.",
        "Tap-to-pay is possible thanks to the built-in NFC chip.",
        "Near-field communication (NFC) is on board.",
        "You can pay with a tap: the phone includes NFC.",
    ],
    ("nfc", False): [
        "There is no NFC, so forget paying with your phone.",
        "It lacks NFC.",
        "The maker left out NFC on this model.",
        "NFC is not supported.",
    ],
    ("ir", True): [
        "An IR blaster lets it double as a TV remote.",
        "It keeps the infrared emitter for controlling your appliances.",
        "Infrared remote control is built in.",
    ],
    ("ir", False): [
        "It has no IR blaster.",
        "Unlike older models, it dropped the infrared port.",
        "There is no infrared emitter to control a TV.",
    ],
    ("card", True): [
        "Storage can be expanded with a microSD card{upto}.",
        "A dedicated memory card slot takes cards{upto}.",
        "It accepts microSD cards{upto}.",
    ],
    ("card", False): [
        "There is no memory card slot, so the built-in storage is all you get.",
        "It does not accept microSD cards.",
        "Storage cannot be expanded.",
    ],
}
HYBRID = "The second SIM tray doubles as a microSD slot{upto}."
BOTH = {  # one sentence, two facts of opposite polarity: negation scope must stay in its clause
    (True, False): "It supports NFC but lacks an IR blaster.",
    (False, True): "It has an IR blaster but no NFC.",
}


@dataclass
class Phone:
    name: str
    brand: str
    price: float | None
    raw: dict
    nfc: bool | None = None  # what the page states; None = not stated
    ir: bool | None = None
    card: bool | None = None
    page: str = ""
    specs: dict = field(default_factory=dict)

    def num(self, col: str, pattern: str, *, index: int = 0) -> float | None:
        found = re.findall(pattern, self.raw.get(col, ""))
        return float(found[index]) if len(found) > index else None


def _price(text: str) -> float | None:
    digits = re.sub(r"[^\d.]", "", str(text))
    return float(digits) if digits else None


def load_phones(rng: random.Random) -> list[Phone]:
    with open(DATA / "smartprix-india-2025" / "smartphones_raw.csv", encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    seen: set[str] = set()
    phones = []
    for r in rows:
        name = r["model"].strip()
        if not name or name in seen:
            continue
        seen.add(name)
        p = Phone(name=name, brand=name.split()[0].lower(), price=_price(r["price"]), raw=r)
        conn = [c.strip() for c in r["connectivity"].split(",") if c.strip()]
        has_nfc, has_ir = "NFC" in conn, "IR Blaster" in conn
        specs = {
            "Network:Connectivity": ", ".join(c for c in conn if c not in ("NFC", "IR Blaster")),
            "Processor:Processor": r["processor"],
            "Memory:Memory": r["ram"],
            "Battery:Battery": r["battery"],
            "Display:Display": r["display"],
            "Camera:Camera": r["camera"],
            "Software:Operating System": r["os"],
            "Ratings:Rating": r["rating"],
        }
        p.specs = {k: v for k, v in specs.items() if v.strip()}
        sentences = [f"The {name} is sold in India."]
        say_nfc, say_ir = rng.random() < 0.8, rng.random() < 0.8
        if say_nfc and say_ir and has_nfc != has_ir and rng.random() < 0.3:
            sentences.append(BOTH[(has_nfc, has_ir)])
        else:
            if say_nfc:
                sentences.append(rng.choice(SAYS[("nfc", has_nfc)]))
            if say_ir:
                sentences.append(rng.choice(SAYS[("ir", has_ir)]))
        p.nfc = has_nfc if say_nfc else None
        p.ir = has_ir if say_ir else None
        card = r["memory_card"].strip()
        m = re.search(r"upto\s+(\d+\s*[GT]B)", card)
        upto = f", up to {m.group(1)}" if m else ""
        if card.startswith("Memory Card Not Supported"):
            p.card = False
            sentences.append(rng.choice(SAYS[("card", False)]))
        elif "Hybrid" in card:
            p.card = True
            sentences.append(HYBRID.format(upto=upto))
        elif card.startswith("Memory Card Supported"):
            p.card = True
            sentences.append(rng.choice(SAYS[("card", True)]).format(upto=upto))
        rng.shuffle(sentences)
        p.page = " ".join(sentences)
        phones.append(p)
    return phones


@dataclass
class Item:
    """An Icecat product."""

    name: str
    brand: str
    category: str
    price: float | None
    attrs: dict
    description: str


def load_icecat() -> list[Item]:
    items = []
    for path in sorted((DATA / "icecat-sample").glob("*.ndjson")):
        for line in path.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            cats = d["categories"]
            cats = ast.literal_eval(cats) if isinstance(cats, str) else cats
            attrs = d["attrs"] if isinstance(d["attrs"], dict) else ast.literal_eval(d["attrs"])
            items.append(
                # the brand is the title's first word, as for the phones: the feed's brand field is at
                # times the accessory vendor it was harvested from ("Neomounts" on a Samsung TV)
                Item(
                    d["title"].strip(),
                    d["title"].split()[0],
                    cats[0],
                    _price(d.get("price") or ""),
                    attrs,
                    d["description"],
                )
            )
    return items


# ---- the raw strings, read by regular expressions written for this set only ----------------------


def ram_gb(p: Phone) -> float | None:
    m = re.search(r"([\d.]+)\s*(GB|MB)\s*RAM", p.raw["ram"])
    return None if not m else float(m.group(1)) / (1024 if m.group(2) == "MB" else 1)


def storage_gb(p: Phone) -> float | None:
    m = re.search(r"([\d.]+)\s*(GB|TB|MB)\s*inbuilt", p.raw["ram"])
    if not m:
        return None
    return float(m.group(1)) * {"GB": 1, "TB": 1024, "MB": 1 / 1024}[m.group(2)]


def main_rear_mp(p: Phone) -> float | None:
    cam = p.raw["camera"]
    if "Rear" not in cam:
        return None
    return p.num("camera", r"([\d.]+)\s*MP")


def front_mp(p: Phone) -> float | None:
    m = re.search(r"([\d.]+)\s*MP(?:\s*\+\s*[\d.]+\s*MP)*\s*(?:Dual\s+)?Front", p.raw["camera"])
    return float(m.group(1)) if m else None


def battery_mah(p: Phone) -> float | None:
    return p.num("battery", r"(\d+)\s*mAh")


def charging_w(p: Phone) -> float | None:
    return p.num("battery", r"([\d.]+)\s*W\s+Fast Charging")


def refresh_hz(p: Phone) -> float | None:
    return p.num("display", r"(\d+)\s*Hz")


def screen_in(p: Phone) -> float | None:
    return p.num("display", r"([\d.]+)\s*inches")


def clock_ghz(p: Phone) -> float | None:
    return p.num("processor", r"([\d.]+)\s*GHz")


def has5g(p: Phone) -> bool:
    return "5G" in [c.strip() for c in p.raw["connectivity"].split(",")]


# ---- questions -----------------------------------------------------------------------------------


class Builder:
    def __init__(self, phones: list[Phone], items: list[Item]):
        self.phones, self.items, self.out = phones, items, []

    def by(self, brand: str) -> list[Phone]:
        return [p for p in self.phones if p.brand == brand.lower()]

    def phone_by_name(self, name: str) -> Phone:
        (p,) = [p for p in self.phones if p.name == name]
        return p

    def add(self, question: str, category: str, method: str, *, names=None, value=None, min_len=1, max_len=60):
        is_list = names is not None
        if is_list:
            names = list(dict.fromkeys(names))
            assert min_len <= len(names) <= max_len, (question, len(names))
        else:
            assert value is not None, question
        self.out.append(
            {
                "question": question,
                "category": category,
                "gt_retrieval_method": method,
                "is_list": is_list,
                "objectivity": True,
                "source": None,
                "gt_answer": (", ".join(names) if names else "none") if is_list else str(value),
                "gt_answer_nl_generated": True,
                "gt_answer_list": names if is_list else None,
                "gt_value": None if is_list else value,
            }
        )

    def best(self, pool, key, *, low=False):
        """The single product with the largest (smallest) key; refuses ties."""
        scored = [(key(x), x) for x in pool if key(x) is not None]
        top = (min if low else max)(v for v, _ in scored)
        winners = [x for v, x in scored if v == top]
        return winners, top

    def add_best(self, question, category, method, winners):
        """A superlative over products: one winner is a value, a tie (variants of one model) a list."""
        names = [w.name for w in winners]
        if len(names) == 1:
            self.add(question, category, method, value=names[0])
        else:
            self.add(question, category, method, names=names)

    def top_value(self, pool, key, *, low=False):
        vals = [key(x) for x in pool if key(x) is not None]
        v = (min if low else max)(vals)
        return int(v) if float(v).is_integer() else v


def icecat_phones(b: Builder, brand: str | None = None) -> list[Item]:
    return [i for i in b.items if i.category in PHONE_CATS and (brand is None or i.brand == brand)]


def attr_number(i: Item, key: str, unit: str) -> float | None:
    """The number before ``unit`` in an Icecat attribute ("12 GB", '17.5 cm (6.9")' with unit '"')."""
    m = re.search(r"([\d.]+)\s*" + re.escape(unit), i.attrs.get(key, ""))
    return float(m.group(1)) if m else None


def build_questions(b: Builder) -> list[dict]:
    ph, it = b.phones, b.items
    L = "Inverse Queries"
    M = "Multi-Condition Queries"
    G = "Group Comparison Queries"
    R = "Reasoning Queries"
    A = "Aggregation Queries"
    cat = lambda c, brand=None: [i.name for i in it if i.category == c and (brand is None or i.brand == brand)]  # noqa: E731

    # scope: brand x type, lines, case variants
    b.add("Which Samsung tablets does the shop list?", L, "sparql", names=cat("Tablets", "Samsung"))
    b.add("List the Lenovo laptops.", L, "sparql", names=cat("Laptops", "Lenovo"))
    b.add("How many Samsung phone cases are there?", A, "sparql", value=len(cat("Mobile Phone Cases", "Samsung")))
    b.add("Which HP desktop PCs or workstations are listed?", L, "sparql", names=cat("PCs/Workstations", "HP"))
    b.add("Which Sony mobile phones are listed?", L, "sparql", names=cat("Mobile Phones", "Sony"))
    b.add("Which Samsung TVs are available?", L, "sparql", names=cat("TVs", "Samsung"))
    b.add("How many Lenovo tablets are there?", A, "sparql", value=len(cat("Tablets", "Lenovo")))
    b.add(
        "Which LG phones are there?",
        L,
        "sparql",
        names=[i.name for i in icecat_phones(b) if i.brand == "LG"] + [p.name for p in b.by("lg")],
    )
    b.add(
        "Which oppo phones cost less than ₹12,000?",
        M,
        "sparql",
        names=[p.name for p in b.by("oppo") if p.price is not None and p.price < 12000],
    )
    b.add(
        "Which iPhones have 1 TB of storage?",
        M,
        "sparql",
        names=[p.name for p in ph if "iPhone" in p.name and storage_gb(p) == 1024],
    )
    b.add("How many Pixel phones are listed?", A, "sparql", value=len([p for p in ph if "Pixel" in p.name]))
    b.add(
        "Which Galaxy S phones cost more than ₹1,00,000?",
        M,
        "sparql",
        names=[p.name for p in ph if re.search(r"Galaxy S\d", p.name) and p.price and p.price > 100000],
    )
    b.add(
        "How many Realme phones support 5G?",
        A,
        "sparql",
        value=len([p for p in b.by("realme") if has5g(p)]),
    )
    b.add(
        "Which OnePlus phones have a display of 120 Hz or faster?",
        M,
        "sparql",
        names=[p.name for p in b.by("oneplus") if (refresh_hz(p) or 0) >= 120],
    )
    low, _ = b.best(b.by("motorola"), lambda p: p.price, low=True)
    b.add_best("What is the cheapest Motorola phone?", A, "sparql", low)
    high, _ = b.best(b.by("nothing"), lambda p: p.price)
    b.add_best("Which Nothing phone is the most expensive?", A, "sparql", high)

    # attributes spread across entries, raw strings
    b.add(
        "Which Samsung phones have at least 12 GB of RAM?",
        M,
        "sparql",
        # gold corrected after first contact: the Icecat Samsung phones count too (RAM capacity)
        names=[p.name for p in b.by("samsung") if (ram_gb(p) or 0) >= 12]
        + [i.name for i in icecat_phones(b, "Samsung") if (attr_number(i, "RAM capacity", "GB") or 0) >= 12],
    )
    b.add(
        "Which phones have a main rear camera of 200 MP or more?",
        L,
        "sparql",
        names=[p.name for p in ph if (main_rear_mp(p) or 0) >= 200],
    )
    b.add(
        "Which Motorola phones have a selfie camera of at least 32 MP?",
        M,
        "sparql",
        names=[p.name for p in b.by("motorola") if (front_mp(p) or 0) >= 32],
    )
    b.add(
        "Which phones support fast charging of 100 W or more?",
        L,
        "sparql",
        names=[p.name for p in ph if (charging_w(p) or 0) >= 100],
    )
    b.add(
        "Which Xiaomi phones have a battery of at least 6000 mAh?",
        M,
        "sparql",
        names=[p.name for p in b.by("xiaomi") if (battery_mah(p) or 0) >= 6000],
    )
    b.add(
        "Which Vivo phones have a screen of 6.8 inches or larger?",
        M,
        "sparql",
        names=[p.name for p in b.by("vivo") if (screen_in(p) or 0) >= 6.8],
    )
    b.add(
        "Which phones refresh their screen at 165 Hz or more?",
        L,
        "sparql",
        names=[p.name for p in ph if (refresh_hz(p) or 0) >= 165],
    )
    b.add(
        "Which Apple phones have 512 GB of built-in storage?",
        M,
        "sparql",
        names=[p.name for p in b.by("apple") if storage_gb(p) == 512],
    )
    b.add(
        "Which Samsung phones run Android 15?",
        M,
        "sparql",
        # gold corrected after first contact: the Icecat Samsung phones count too
        names=[p.name for p in b.by("samsung") if re.fullmatch(r"Android v15", p.raw["os"].strip())]
        + [i.name for i in icecat_phones(b, "Samsung") if i.attrs.get("Operating system installed") == "Android 15"],
    )
    b.add(
        "Which Realme phones have a processor clocked at 3 GHz or faster?",
        M,
        "sparql",
        names=[p.name for p in b.by("realme") if (clock_ghz(p) or 0) >= 3],
    )
    b.add(
        "Which Lava phones have an octa-core processor?",
        M,
        "sparql",
        names=[p.name for p in b.by("lava") if "Octa Core" in p.raw["processor"]],
    )
    b.add(
        "Which phones under ₹20,000 have 12 GB RAM and 256 GB storage?",
        M,
        "sparql",
        names=[p.name for p in ph if p.price and p.price < 20000 and ram_gb(p) == 12 and storage_gb(p) == 256],
    )
    b.add(
        "Which OnePlus phones charge at 80 W or more and have a battery of at least 6000 mAh?",
        M,
        "sparql",
        names=[p.name for p in b.by("oneplus") if (charging_w(p) or 0) >= 80 and (battery_mah(p) or 0) >= 6000],
    )
    b.add(
        "Which LG phones have a battery of at least 2000 mAh?",
        M,
        "sparql",
        names=[
            i.name
            for i in icecat_phones(b)
            if i.brand == "LG" and float(re.sub(r"[^\d.]", "", i.attrs.get("Battery capacity", "0 mAh")) or 0) >= 2000
        ],
    )

    # superlatives and aggregates on the right attribute
    b.add(
        "What is the highest refresh rate among Samsung phones, in Hz?",
        A,
        "sparql",
        value=b.top_value(b.by("samsung"), refresh_hz),
    )
    b.add(
        "What is the largest battery capacity of any Vivo phone, in mAh?",
        A,
        "sparql",
        value=b.top_value(b.by("vivo"), battery_mah),
    )
    b.add(
        "What is the fastest charging wattage among OnePlus phones?",
        A,
        "sparql",
        value=b.top_value(b.by("oneplus"), charging_w),
    )
    b.add(
        "What is the highest main camera resolution on a Motorola phone, in MP?",
        A,
        "sparql",
        value=b.top_value(b.by("motorola"), main_rear_mp),
    )
    b.add(
        "How many Apple phones are priced above ₹1,50,000?",
        A,
        "sparql",
        value=len([p for p in b.by("apple") if (p.price or 0) > 150000]),
    )
    b.add(
        "What is the lowest price of a Nothing phone, in rupees?",
        A,
        "sparql",
        value=b.top_value(b.by("nothing"), lambda p: p.price, low=True),
    )
    b.add(
        "How many Samsung phones have a display larger than 6.7 inches?",
        A,
        "sparql",
        # gold corrected after first contact: the Icecat Samsung phones count too
        value=len([p for p in b.by("samsung") if (screen_in(p) or 0) > 6.7])
        + len([i for i in icecat_phones(b, "Samsung") if (attr_number(i, "Display diagonal", '"') or 0) > 6.7]),
    )
    b.add(
        "What is the biggest screen size among Google phones, in inches?",
        A,
        "sparql",
        value=b.top_value(b.by("google"), screen_in),
    )
    big, _ = b.best(b.by("poco"), battery_mah)
    b.add_best("Which Poco phone has the largest battery?", A, "sparql", big)
    b.add(
        "What is the largest amount of RAM in an iQOO phone, in GB?",
        A,
        "sparql",
        value=b.top_value(b.by("iqoo"), ram_gb),
    )
    tab, _ = b.best([i for i in it if i.category == "Tablets" and i.brand == "Samsung"], lambda i: i.price, low=True)
    b.add_best("Which Samsung tablet is the cheapest?", A, "sparql", tab)
    b.add(
        "What does the cheapest Lenovo tablet cost, in US dollars?",
        A,
        "sparql",
        value=b.top_value(
            [i for i in it if i.category == "Tablets" and i.brand == "Lenovo"], lambda i: i.price, low=True
        ),
    )

    # prose-only facts, with negation and paraphrase
    nfc = lambda brand, v: [p.name for p in b.by(brand) if p.nfc is v]  # noqa: E731
    irb = lambda brand, v: [p.name for p in b.by(brand) if p.ir is v]  # noqa: E731
    crd = lambda brand, v: [p.name for p in b.by(brand) if p.card is v]  # noqa: E731
    b.add(
        "Which Galaxy A phones support contactless payments with NFC?",
        L,
        "tkg",
        names=[n for n in nfc("samsung", True) if re.search(r"Galaxy A\d", n)],
    )
    b.add("Which Xiaomi phones have an infrared remote blaster?", L, "tkg", names=irb("xiaomi", True))
    b.add("Which Motorola phones do not have NFC?", L, "tkg", names=nfc("motorola", False))
    b.add("Which Vivo phones lack a memory card slot?", L, "tkg", names=crd("vivo", False))
    b.add("Which Poco phones can take a microSD card?", L, "tkg", names=crd("poco", True))
    b.add("How many Realme phones have an IR blaster?", A, "tkg", value=len(irb("realme", True)))
    b.add("How many OnePlus phones are without NFC?", A, "tkg", value=len(nfc("oneplus", False)))
    b.add("Which iQOO phones have NFC?", L, "tkg", names=nfc("iqoo", True))
    b.add(
        "Which Samsung phones under ₹30,000 support NFC?",
        M,
        "tkg",
        names=[p.name for p in b.by("samsung") if p.nfc is True and p.price and p.price < 30000],
        min_len=0,
    )
    b.add(
        "Which Infinix phones with 5G have no infrared blaster?",
        M,
        "tkg",
        names=[p.name for p in b.by("infinix") if p.ir is False and has5g(p)],
    )
    b.add("Which Lava phones do not support memory cards?", L, "tkg", names=crd("lava", False), min_len=0)
    b.add("Which Tecno phones have an IR emitter?", L, "tkg", names=irb("tecno", True))
    b.add(
        "Which Oppo phones have NFC and expandable storage?",
        M,
        "tkg",
        names=[p.name for p in b.by("oppo") if p.nfc is True and p.card is True],
        min_len=0,
    )
    b.add("How many Apple phones accept memory cards?", A, "tkg", value=len(crd("apple", True)))
    b.add(
        "Which Motorola phones with at least 8 GB of RAM support NFC?",
        M,
        "tkg",
        names=[p.name for p in b.by("motorola") if p.nfc is True and (ram_gb(p) or 0) >= 8],
    )
    b.add("Which Vivo phones can act as a TV remote?", R, "tkg", names=irb("vivo", True))

    # comparisons between named products
    pair_rng = random.Random(7)

    def pick(pool, key, *, differ=True, rng=pair_rng):
        pool = [p for p in pool if key(p) is not None and "(" not in p.name]
        for _ in range(200):
            x, y = rng.sample(pool, 2)
            if not differ or key(x) != key(y):
                return x, y
        raise AssertionError("no pair")

    x, y = pick(b.by("samsung"), battery_mah)
    b.add(
        f"Which has the bigger battery, the {x.name} or the {y.name}?",
        G,
        "sparql",
        value=max((x, y), key=battery_mah).name,
    )
    x, y = pick(b.by("vivo") + b.by("oppo"), lambda p: p.price)
    b.add(f"Which is cheaper: {x.name} or {y.name}?", G, "sparql", value=min((x, y), key=lambda p: p.price).name)
    x, y = pick(b.by("realme"), ram_gb)
    b.add(f"Which has more RAM, {x.name} or {y.name}?", G, "sparql", value=max((x, y), key=ram_gb).name)
    x, y = pick(b.by("motorola") + b.by("xiaomi"), refresh_hz)
    b.add(
        f"{x.name} vs {y.name}: which has the higher refresh rate?", G, "sparql", value=max((x, y), key=refresh_hz).name
    )
    x, y = pick(b.by("oneplus") + b.by("google"), screen_in)
    b.add(f"Which has the larger screen, {x.name} or {y.name}?", G, "sparql", value=max((x, y), key=screen_in).name)
    x, y = pick(b.by("iqoo") + b.by("poco"), main_rear_mp)
    b.add(
        f"Between {x.name} and {y.name}, which has the higher-resolution main camera?",
        G,
        "sparql",
        value=max((x, y), key=main_rear_mp).name,
    )
    fast = [p for p in b.by("samsung") if charging_w(p) and "(" not in p.name]
    slow = [p for p in b.by("itel") + b.by("lava") if battery_mah(p) and not charging_w(p) and "(" not in p.name]
    x, y = fast[len(fast) // 2], slow[len(slow) // 2]
    b.add(f"Which charges faster, the {y.name} or the {x.name}?", G, "sparql", value=x.name)
    yes = [p for p in b.by("xiaomi") + b.by("redmi") if p.nfc is True and "(" not in p.name]
    no = [p for p in b.by("xiaomi") + b.by("redmi") if p.nfc is False and "(" not in p.name]
    x, y = yes[0], no[-1]
    b.add(f"Which one supports NFC, the {y.name} or the {x.name}?", G, "tkg", value=x.name)

    # single facts and conversions
    rng = random.Random(11)
    p = rng.choice([p for p in b.by("samsung") if p.price and "(" not in p.name])
    b.add(f"What is the price of the {p.name} in rupees?", R, "sparql", value=int(p.price))
    p = rng.choice([p for p in b.by("vivo") if ram_gb(p)])
    b.add(f"How much RAM does the {p.name} have, in GB?", R, "sparql", value=ram_gb(p))
    p = rng.choice([p for p in b.by("realme") if battery_mah(p) and "(" not in p.name])
    b.add(f"What is the battery capacity of the {p.name} in mAh?", R, "sparql", value=int(battery_mah(p)))
    p = rng.choice([p for p in b.by("oneplus") if refresh_hz(p) and "(" not in p.name])
    b.add(f"What refresh rate does the {p.name} screen have?", R, "sparql", value=int(refresh_hz(p)))
    p = rng.choice([p for p in b.by("motorola") if charging_w(p) and "(" not in p.name])
    b.add(f"How fast does the {p.name} charge, in watts?", R, "sparql", value=int(charging_w(p)))
    return b.out


def write_catalog(phones: list[Phone], items: list[Item], out: Path) -> None:
    rows = [
        {"name": p.name, "category": "Smartphones", "price": p.raw["price"], "specs": p.specs, "page": p.page}
        for p in phones
    ]
    for i in items:
        price = f"{i.price} USD" if i.price is not None else ""
        rows.append({"name": i.name, "category": i.category, "price": price, "specs": i.attrs, "page": i.description})
    write_rows(rows, out, "devmix: one row per product; specs come as an object, prose as the page text")


def write_rows(rows: list[dict], out: Path, about: str) -> None:
    """``catalog.jsonl`` (one row per product: name, category, price, specs, page) and the
    ``mapping.yaml`` that imports it; ``about`` heads the mapping as a comment."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "catalog.jsonl", "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    (out / "mapping.yaml").write_text(
        f"# {about}\n"
        "name: name\ncategories: category\nprice: {column: price}\ngroup_by: name\n"
        "specs_from: specs\ntext: [page]\nunmapped: drop\n",
        encoding="utf-8",
    )


def main(build=build_questions, questions: Path = QUESTIONS, description: str | None = None) -> None:
    """The command line of a set over this catalog: ``build`` writes its questions to ``questions``."""
    ap = argparse.ArgumentParser(description=(description or __doc__).split("\n")[0])
    ap.add_argument("--out", help="write catalog.jsonl and mapping.yaml here")
    ap.add_argument("--check", action="store_true", help="fail if questions.json is stale")
    ap.add_argument("--show", action="store_true", help="print every question with its gold")
    args = ap.parse_args()
    phones, items = load_phones(random.Random(2026)), load_icecat()
    qs = build(Builder(phones, items))
    doc = {str(i): q for i, q in enumerate(qs)}
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    if args.check:
        sys.exit(0 if questions.read_text(encoding="utf-8") == text else "questions.json is stale")
    questions.write_text(text, encoding="utf-8")
    if args.show:
        for q in qs:
            gold = q["gt_answer_list"] if q["is_list"] else q["gt_value"]
            print(f"[{q['category'][:5]}|{q['gt_retrieval_method']}] {q['question']}\n    -> {gold}")
    print(f"{len(qs)} questions, {len(phones)} phones + {len(items)} Icecat products", file=sys.stderr)
    if args.out:
        write_catalog(phones, items, Path(args.out))


if __name__ == "__main__":
    main()
