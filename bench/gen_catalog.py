"""A deterministic synthetic product catalog for scale benchmarks.

Writes a SpecsQA dataset directory: one page per product family (a brand, a line and a
model number) holding 1–4 variants (storage, colour, size or configuration options).
Spec values come in the noisy shapes real catalogs use ("Li-Po 5000 mAh", ``6,7"``,
"8GB RAM / 256GB", "GSM / HSPA / LTE / 5G", "Released 2023, Q4", Yes/No or left out),
and the Markdown page states, negates and paraphrases the same features in prose, so
both the spec graph and the text graph have something to find.

    .venv/bin/python bench/gen_catalog.py OUT --products 100000 [--seed 0] [--markets uk,de,in]
        [--variants-per-family 1-4] [--per-market-dirs] [--heavy]
    .venv/bin/python bench/gen_catalog.py mutate DIR --percent 1 [--seed 0]

``--per-market-dirs`` writes ``OUT/<market>/``, one snapshot per market (for ``dualgraph index
--market``): the same pages and products, each with that market's price and currency only, and
a few documents (about 5 %, never in the first market) missing from the other markets.
``mutate`` changes a given share of a dataset's documents in place (a price and the page text)
and prints the ids it changed, for incremental re-index runs.

Same arguments, same bytes: everything is drawn from one ``random.Random(seed)`` in a
fixed order, and pages are streamed to disk so a large catalog never sits in memory.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset

MARKETS = {"uk": ("GBP", "United Kingdom", 1.0), "de": ("EUR", "Germany", 1.17), "in": ("INR", "India", 105.0)}
MONTHS = "January February March April May June July August September October November December".split()
COLOURS = "Midnight Black|Glacier White|Ocean Blue|Sage Green|Sunset Orange|Graphite|Silver|Rose Gold|Lavender".split(
    "|"
)
LINE_WORDS = "Nova Pulse Edge Aero Flex Prime Zen Core Vista Orbit Spark Quill Halo Terra Lumen Vibe Apex Echo".split()
MODEL_SUFFIXES = ["", "", "", " Pro", " Plus", " Lite", " Max", " Mini", " Ultra", " SE"]
ONSETS = "b br c d dr f g k l m n p pr r s st t tr v z".split()
NUCLEI = "a e i o u ai ou".split()
CODAS = ["", "", "n", "r", "x", "s", "l", "k"]

Spec = tuple[str, str]


@dataclass
class Feature:
    """A yes/no feature as the prose tells it: stated, paraphrased, or negated when absent."""

    present: bool
    stated: str
    paraphrase: str
    negated: str


@dataclass
class Family:
    category: str
    categories: tuple[str, ...]
    noun: str
    specs: list[Spec]
    features: list[Feature]
    # each option is (label for names, short code, specs it adds, price step in GBP)
    options: list[tuple[str, str, list[Spec], float]]
    base_price: float
    summary: list[str]
    fillers: list[str]
    year: int
    month: int


def pseudo_word(r: random.Random, syllables: int) -> str:
    word = "".join(r.choice(ONSETS) + r.choice(NUCLEI) for _ in range(syllables)) + r.choice(CODAS)
    return word.capitalize()


def unique_words(r: random.Random, n: int, syllables: int) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        w = pseudo_word(r, syllables)
        if w not in seen:
            seen.add(w)
            out.append(w)
    return out


# ---- noisy value shapes -------------------------------------------------------------


def date_value(r: random.Random, y: int, m: int, d: int) -> str:
    form = r.randrange(5)
    if form == 0:
        return f"{y}-{m:02d}-{d:02d}"
    if form == 1:
        return f"{MONTHS[m - 1]} {y}"
    if form == 2:
        return f"Released {y}, Q{(m - 1) // 3 + 1}"
    if form == 3:
        return f"{d:02d}/{m:02d}/{y}"
    return f"{y}, {MONTHS[m - 1]} {d}"


def inches_value(r: random.Random, x: float) -> str:
    s = f"{x:g}"
    form = r.randrange(4)
    if form == 0:
        return f"{s} inches"
    if form == 1:
        return s.replace(".", ",") + '"'
    if form == 2:
        return f'{x * 2.54:.1f} cm ({s}")'
    return f"{s}-inch"


def grams_value(r: random.Random, g: int, heavy: bool) -> str:
    form = r.randrange(3)
    if heavy:
        if form == 0:
            return f"{g / 1000:g} kg"
        if form == 1:
            return f"{g} g"
        return f"{g / 1000:.2f} kg ({g / 453.6:.1f} lbs)"
    if form == 0:
        return f"{g} g ({g / 28.35:.2f} oz)"
    return f"{g} g" if form == 1 else f"{g}g"


def battery_value(r: random.Random, mah: int, chem: str) -> str:
    form = r.randrange(3)
    if form == 0:
        return f"{chem} {mah} mAh"
    if form == 1:
        return f"{mah}mAh {chem}, non-removable"
    return f"Non-removable {chem} {mah} mAh battery"


def storage_label(gb: int) -> str:
    return "1TB" if gb == 1024 else f"{gb}GB"


def memory_value(r: random.Random, ram: int, gb: int) -> str:
    st = storage_label(gb)
    form = r.randrange(3)
    if form == 0:
        return f"{ram}GB RAM / {st}"
    if form == 1:
        return f"{st} {ram}GB RAM"
    return f"{st.replace('GB', ' GB').replace('TB', ' TB')}, {ram} GB RAM"


def hz_value(r: random.Random, hz: int) -> str:
    return f"{hz} Hz" if r.random() < 0.6 else f"{hz}Hz"


def yes_no(r: random.Random, present: bool, absent_rate: float = 0.25) -> str | None:
    """``None`` leaves the entry out: many pages simply do not say."""
    if r.random() < absent_rate:
        return None
    return "Yes" if present else "No"


def listing(items: Sequence[str], sep: str = " / ") -> str:
    return sep.join(items)


def add(specs: list[Spec], key: str, value: str | None) -> None:
    if value is not None:
        specs.append((key, value))


def release(r: random.Random) -> tuple[int, int, int]:
    return r.randrange(2019, 2026), r.randrange(1, 13), r.randrange(1, 29)


# ---- categories ---------------------------------------------------------------------


def phone_like(r: random.Random, chips: list[str], tablet: bool) -> Family:
    y, m, d = release(r)
    specs: list[Spec] = []
    techs = ["GSM"] + (["CDMA"] if r.random() < 0.3 else []) + ["HSPA", "LTE"] + (["5G"] if y >= 2021 else [])
    cellular = not tablet or r.random() < 0.5
    if cellular:
        add(specs, "Network:Technology", listing(techs))
    add(specs, "Launch:Announced", date_value(r, y, m, d))
    if r.random() < 0.4:
        add(specs, "Launch:Status", f"Available. Released {y}, {MONTHS[m - 1]} {d}")
    size = round(r.uniform(10.2, 13.0) if tablet else r.uniform(5.8, 6.9), 1)
    grams = r.randrange(420, 720) if tablet else r.randrange(150, 240)
    add(
        specs, "Body:Dimensions", f"{r.uniform(140, 280):.1f} x {r.uniform(65, 190):.1f} x {r.uniform(5.5, 9.5):.1f} mm"
    )
    add(specs, "Body:Weight", grams_value(r, grams, heavy=False))
    water = r.random() < 0.55
    if water:
        add(
            specs, "Body:Water resistance", r.choice(["IP68 (up to 1.5m for 30 min)", "IP67", "IP54, splash resistant"])
        )
    if cellular:
        add(specs, "Body:SIM", r.choice(["Nano-SIM", "Nano-SIM + eSIM", "Dual SIM (Nano-SIM, dual stand-by)"]))
    hz = r.choice([60, 90, 120, 120, 144])
    panel = r.choice(["AMOLED", "LTPO AMOLED", "IPS LCD", "OLED"])
    add(specs, "Display:Type", f"{panel}, {hz}Hz, HDR10+" if r.random() < 0.5 else panel)
    add(specs, "Display:Size", inches_value(r, size))
    add(specs, "Display:Refresh rate", hz_value(r, hz))
    add(
        specs,
        "Display:Resolution",
        r.choice(["1080 x 2400 pixels, 20:9 ratio", "1440 x 3200 pixels", "2560 x 1600 pixels"]),
    )
    add(specs, "Platform:OS", f"Android {y - 2010}, up to {r.randrange(2, 8)} major upgrades")
    ghz = r.choice(["3.3", "3.2", "3.0", "2.8"])
    add(specs, "Platform:Chipset", f"{r.choice(chips)} {r.randrange(4, 9)} Gen {r.randrange(1, 4)} (4 nm)")
    add(specs, "Platform:CPU", f"Octa-core (1x{ghz} GHz & 3x2.8 GHz & 4x2.0 GHz)")
    card = r.random() < 0.35
    add(specs, "Memory:Card slot", "microSDXC (dedicated slot)" if card else "No")
    mp = r.choice([12, 48, 50, 64, 108, 200])
    add(specs, "Main Camera:Modules", f"{mp} MP, f/1.8, (wide), PDAF, OIS + 12 MP, f/2.2, (ultrawide)")
    jack = r.random() < (0.6 if tablet else 0.3)
    add(specs, "Sound:3.5mm jack", yes_no(r, jack, 0.15))
    nfc = r.random() < 0.7
    add(specs, "Comms:NFC", None if tablet else yes_no(r, nfc))
    add(specs, "Comms:WLAN", r.choice(["Wi-Fi 802.11 a/b/g/n/ac/6e, dual-band", "Wi-Fi 802.11 a/b/g/n/ac", "Wi-Fi 7"]))
    add(specs, "Comms:Bluetooth", r.choice(["5.3, A2DP, LE", "5.2, A2DP, LE, aptX HD", "5.0"]))
    mah = r.randrange(70, 110) * 100 if tablet else r.randrange(30, 60) * 100
    add(specs, "Battery:Type", battery_value(r, mah, r.choice(["Li-Po", "Li-Ion"])))
    watts = r.choice([18, 25, 33, 45, 67, 120])
    add(specs, "Battery:Charging", f"{watts}W wired, PD3.0, {r.randrange(40, 80)}% in 30 min")
    wireless = r.random() < 0.45
    add(specs, "Battery:Wireless charging", (f"Yes, {r.choice([10, 15, 50])}W" if wireless else "No"))
    ram = r.choice([4, 6, 8, 12])
    sizes = sorted(r.sample([64, 128, 256, 512, 1024], 3))
    colours = r.sample(COLOURS, 3)
    options = []
    for i, gb in enumerate(sizes):
        vram = ram + 4 * (gb >= 512)
        for c in colours:
            extra = [("Variant features:Storage", storage_label(gb)), ("Variant features:Colour", c)]
            extra.append(("Memory:Internal", memory_value(r, vram, gb)))
            options.append((f"{storage_label(gb)} {c}", f"{gb}-{c[:2].upper()}", extra, 100.0 * i))
    noun = "tablet" if tablet else "phone"
    features = [
        Feature(
            wireless,
            "has wireless charging",
            "tops up on any Qi pad without a cable",
            "does not support wireless charging",
        ),
        Feature(
            card,
            "takes a microSD card for extra space",
            "lets you add a memory card when storage runs out",
            "does not support expandable storage",
        ),
        Feature(
            jack, "keeps the 3.5 mm headphone jack", "still lets you plug in wired headphones", "has no headphone jack"
        ),
        Feature(water, "is water resistant", "shrugs off rain and the odd dunk in the sink", "is not water resistant"),
    ]
    if not tablet:
        features.append(
            Feature(
                nfc,
                "supports NFC payments",
                "lets you pay with a tap at the till",
                "lacks NFC, so no contactless payments",
            )
        )
    summary = [
        f"Display: {size:g}-inch {panel}, {hz} Hz",
        f"Battery: {mah} mAh, {watts} W charging",
        f"Weight: {grams} g",
    ]
    fillers = [
        f"The {mp} MP main camera handles daylight shots with plenty of detail.",
        f"A {hz} Hz panel keeps scrolling smooth and games responsive.",
        f"Charging at {watts} W means a short break is enough to get through the evening.",
        f"With {ram} GB of memory, switching between apps rarely reloads anything.",
        "The frame is aluminium and the back is matte glass that hides fingerprints.",
        "Stereo speakers are loud enough for a video call in a busy room.",
        "Software updates arrive monthly, and the maker promises several years of security fixes.",
        "The fingerprint reader sits under the display and unlocks quickly.",
    ]
    cats = ("Electronics", "Tablets") if tablet else ("Electronics", "Mobile Phones")
    base = r.randrange(15, 110) * 10 - 1.0
    return Family(noun + "s", cats, noun, specs, features, options, base, summary, fillers, y, m)


def laptop(r: random.Random, chips: list[str]) -> Family:
    y, m, d = release(r)
    specs: list[Spec] = []
    add(specs, "General:Release date", date_value(r, y, m, d))
    size = r.choice([13.3, 14.0, 15.6, 16.0, 17.3])
    hz = r.choice([60, 90, 120, 144, 165])
    add(specs, "Display:Size", inches_value(r, size))
    add(
        specs,
        "Display:Resolution",
        r.choice(["1920 x 1080 (Full HD)", "2560 x 1600", "2880 x 1800 OLED", "3840 x 2400"]),
    )
    add(specs, "Display:Refresh rate", hz_value(r, hz))
    add(specs, "Processor:Model", f"{r.choice(chips)} {r.choice(['i5', 'i7', 'R7', 'X1'])}-{r.randrange(1000, 9999)}H")
    add(
        specs,
        "Processor:Cores",
        f"{r.choice([8, 10, 12, 14, 16])} cores / {r.choice([12, 16, 20, 24])} threads, up to {r.uniform(4.2, 5.6):.1f} GHz",
    )
    add(
        specs,
        "Graphics:GPU",
        r.choice(["Integrated", "RTX 4050 6GB GDDR6", "RTX 4070 8 GB", "Radeon 780M (integrated)"]),
    )
    grams = r.randrange(110, 280) * 10
    add(specs, "Physical:Weight", grams_value(r, grams, heavy=True))
    wh = r.randrange(45, 100)
    add(specs, "Battery:Capacity", f"{wh} Wh" if r.random() < 0.5 else f"{wh}Wh, 4-cell Li-Po")
    add(specs, "Battery:Life", r.choice([f"Up to {r.randrange(8, 22)} hours", f"{r.randrange(8, 22)}h video playback"]))
    tb = r.random() < 0.5
    ports = ["2x USB-C" + (" (Thunderbolt 4)" if tb else ""), "1x USB-A 3.2", "1x HDMI 2.1"]
    reader = r.random() < 0.4
    if reader:
        ports.append("SD card reader")
    add(specs, "Connectivity:Ports", listing(ports))
    add(specs, "Connectivity:Wireless", "Wi-Fi 6E / Bluetooth 5.3")
    backlit = r.random() < 0.7
    add(specs, "Input:Backlit keyboard", yes_no(r, backlit))
    touch = r.random() < 0.3
    add(specs, "Display:Touchscreen", yes_no(r, touch, 0.4))
    add(specs, "Input:Webcam", r.choice(["1080p with IR", "720p", "5 MP, privacy shutter"]))
    add(specs, "Software:OS", r.choice(["Windows 11 Home", "Windows 11 Pro", "Linux (Ubuntu 24.04)", "ChromeOS"]))
    rams = sorted(r.sample([8, 16, 32, 64], 2))
    ssds = sorted(r.sample([256, 512, 1024, 2048], 2))
    options = []
    for i, ram in enumerate(rams):
        for j, ssd in enumerate(ssds):
            st = "2TB" if ssd == 2048 else storage_label(ssd)
            extra = [("Variant features:Configuration", f"{ram}GB / {st}"), ("Memory:RAM", f"{ram} GB DDR5-5600")]
            extra.append(("Storage:SSD", r.choice([f"{st} NVMe", f"{st} PCIe 4.0 SSD"])))
            options.append((f"{ram}GB {st}", f"{ram}-{ssd}", extra, 150.0 * i + 100.0 * j))
    features = [
        Feature(
            backlit,
            "has a backlit keyboard",
            "lights up its keys for typing in the dark",
            "does not have a backlit keyboard",
        ),
        Feature(touch, "has a touchscreen", "lets you tap and swipe on the display", "has no touchscreen"),
        Feature(
            tb,
            "supports Thunderbolt 4",
            "drives a dock and two monitors over one cable",
            "does not support Thunderbolt",
        ),
        Feature(reader, "has an SD card reader", "reads camera cards without a dongle", "has no SD card slot"),
    ]
    summary = [f"Display: {size:g} inches, {hz} Hz", f"Weight: {grams / 1000:g} kg", f"Battery: {wh} Wh"]
    fillers = [
        "The keyboard has 1.5 mm of travel and a quiet, firm feel.",
        "A glass trackpad tracks precisely and supports all the usual gestures.",
        f"At {grams / 1000:g} kg it slips into a backpack without much thought.",
        "Two fans stay quiet during office work and ramp up only under sustained load.",
        "The aluminium lid resists flex, and the hinge opens with one finger.",
        "Speakers face upwards and sound fuller than most at this size.",
        "Memory is soldered, so choose the configuration you need at purchase.",
    ]
    base = r.randrange(50, 200) * 10 - 1.0
    return Family(
        "laptops",
        ("Electronics", "Computers", "Laptops"),
        "laptop",
        specs,
        features,
        options,
        base,
        summary,
        fillers,
        y,
        m,
    )


def headphones(r: random.Random, chips: list[str]) -> Family:
    y, m, d = release(r)
    specs: list[Spec] = []
    kind = r.choice(["Over-ear, closed-back", "On-ear", "In-ear, true wireless", "Over-ear, open-back"])
    add(specs, "General:Type", kind)
    add(specs, "General:Release date", date_value(r, y, m, d))
    anc = r.random() < 0.6
    add(
        specs,
        "Audio:Noise cancelling",
        r.choice(["Active (hybrid ANC)", "Yes"]) if anc else r.choice(["No", "Passive only"]),
    )
    add(specs, "Audio:Driver", f"{r.choice([6, 10, 11, 40, 50])} mm dynamic")
    add(specs, "Audio:Frequency response", r.choice(["20 Hz – 20 kHz", "4Hz-40kHz", "20 - 20000 Hz"]))
    add(specs, "Connectivity:Bluetooth", listing(["5.3", "SBC", "AAC"] + (["LDAC"] if r.random() < 0.4 else [])))
    hours = r.randrange(6, 60)
    add(specs, "Battery:Life", r.choice([f"Up to {hours} hours (ANC on)", f"{hours}h", f"{hours} hrs playback"]))
    add(specs, "Battery:Charging", f"USB-C, {r.choice([5, 10])} min = {r.randrange(2, 6)} h playback")
    wired = "in-ear" not in kind.lower()
    add(specs, "Connectivity:3.5mm jack", ("Wired mode: Yes (3.5 mm)" if wired else "No") if r.random() < 0.8 else None)
    mic = r.random() < 0.8
    add(specs, "Features:Microphone", yes_no(r, mic))
    water = r.random() < 0.4
    if water:
        add(specs, "Features:Water resistance", r.choice(["IPX4", "IP54", "IPX5 (sweat resistant)"]))
    grams = r.randrange(4, 12) if "true wireless" in kind else r.randrange(180, 360)
    add(specs, "Physical:Weight", grams_value(r, grams, heavy=False))
    colours = r.sample(COLOURS, 4)
    options = [(c, c[:2].upper(), [("Variant features:Colour", c)], 0.0) for c in colours]
    features = [
        Feature(
            anc,
            "has active noise cancelling",
            "quiets a train carriage to a low hum",
            "does not have active noise cancelling",
        ),
        Feature(
            wired, "works with a 3.5 mm cable", "plugs into an in-flight entertainment socket", "has no headphone jack"
        ),
        Feature(mic, "has a built-in microphone", "handles calls without a separate headset", "has no microphone"),
        Feature(water, "is sweat resistant", "survives a run in the rain", "is not water resistant"),
    ]
    summary = [f"Type: {kind}", f"Battery: up to {hours} h", f"Weight: {grams} g"]
    fillers = [
        "The ear cushions use memory foam and stay comfortable through a long flight.",
        "A companion app offers a five-band equaliser and firmware updates.",
        "Touch controls on the side handle playback, volume and voice assistants.",
        "Multipoint pairing keeps a laptop and a phone connected at the same time.",
        "The case is compact and charges over USB-C.",
        "Bass is punchy without smearing the midrange.",
    ]
    base = r.randrange(3, 40) * 10 - 1.0
    return Family(
        "headphones",
        ("Electronics", "Audio", "Headphones"),
        "pair of headphones",
        specs,
        features,
        options,
        base,
        summary,
        fillers,
        y,
        m,
    )


def smartwatch(r: random.Random, chips: list[str]) -> Family:
    y, m, d = release(r)
    specs: list[Spec] = []
    add(specs, "General:Announced", date_value(r, y, m, d))
    size = round(r.uniform(1.2, 1.9), 2)
    add(specs, "Display:Size", inches_value(r, size))
    add(specs, "Display:Type", r.choice(["AMOLED, always-on", "LTPO OLED", "Transflective MIP"]))
    mah = r.randrange(20, 60) * 10
    add(specs, "Battery:Type", battery_value(r, mah, "Li-Ion"))
    days = r.randrange(1, 21)
    add(specs, "Battery:Life", r.choice([f"Up to {days} days", f"{days} days typical use", f"{days * 24} h"]))
    add(specs, "Body:Water resistance", r.choice(["5ATM", "IP68 / 5ATM", "10 ATM, swimproof", "IP67"]))
    gps = r.random() < 0.7
    add(specs, "Sensors:GPS", (r.choice(["Yes, dual-band (L1+L5)", "Yes"]) if gps else "No"))
    add(
        specs,
        "Sensors:Health",
        listing(
            ["Accelerometer", "gyro", "heart rate"]
            + (["SpO2"] if r.random() < 0.7 else [])
            + (["ECG"] if r.random() < 0.3 else []),
            ", ",
        ),
    )
    nfc = r.random() < 0.6
    add(specs, "Comms:NFC", yes_no(r, nfc))
    lte = r.random() < 0.3
    add(specs, "Comms:Cellular", "LTE (eSIM)" if lte else None)
    add(specs, "Platform:Compatibility", r.choice(["Android 10+ / iOS 15+", "Android only", "iOS 16 or later"]))
    grams = r.randrange(25, 60)
    add(specs, "Body:Weight", grams_value(r, grams, heavy=False))
    cases = r.sample([40, 41, 42, 44, 45, 46], 2)
    options = []
    for i, mm in enumerate(sorted(cases)):
        for c in r.sample(COLOURS, 2):
            extra = [("Variant features:Case size", f"{mm} mm"), ("Variant features:Colour", c)]
            options.append((f"{mm}mm {c}", f"{mm}-{c[:2].upper()}", extra, 30.0 * i))
    features = [
        Feature(gps, "has built-in GPS", "maps a run without your phone in your pocket", "has no GPS of its own"),
        Feature(
            nfc,
            "supports contactless payments",
            "pays for a coffee with a flick of the wrist",
            "does not support contactless payments",
        ),
        Feature(lte, "has an LTE option", "takes calls when the phone is left at home", "has no cellular option"),
    ]
    summary = [f"Display: {size:g} inches", f"Battery: {mah} mAh, up to {days} days", f"Weight: {grams} g"]
    fillers = [
        "Sleep tracking reports stages and a morning readiness score.",
        "The crown scrolls through lists with a satisfying click.",
        "Straps swap without tools using quick-release pins.",
        "Workout detection starts logging a walk after about ten minutes.",
        "Notifications can be answered with quick replies or voice dictation.",
    ]
    base = r.randrange(8, 60) * 10 - 1.0
    return Family(
        "smartwatches",
        ("Electronics", "Wearables", "Smartwatches"),
        "smartwatch",
        specs,
        features,
        options,
        base,
        summary,
        fillers,
        y,
        m,
    )


def television(r: random.Random, chips: list[str]) -> Family:
    y, m, d = release(r)
    specs: list[Spec] = []
    add(specs, "General:Release date", date_value(r, y, m, d))
    panel = r.choice(["QLED", "OLED", "LED LCD", "Mini LED"])
    add(specs, "Display:Panel", panel)
    add(specs, "Display:Resolution", r.choice(["3840 x 2160 (4K UHD)", "4K Ultra HD", "1920 x 1080"]))
    hz = r.choice([50, 60, 100, 120, 144])
    add(specs, "Display:Refresh rate", hz_value(r, hz))
    add(
        specs,
        "Display:HDR",
        listing(
            ["HDR10", "HLG"] + (["HDR10+"] if r.random() < 0.5 else []) + (["Dolby Vision"] if r.random() < 0.5 else [])
        ),
    )
    add(specs, "Connectivity:HDMI", f"{r.choice([2, 3, 4])}x HDMI {r.choice(['2.0', '2.1'])} (eARC on HDMI 3)")
    add(specs, "Smart:Platform", f"{r.choice(chips)} OS {r.randrange(3, 9)}")
    voice = r.random() < 0.6
    add(specs, "Smart:Voice assistant", yes_no(r, voice))
    add(specs, "Power:Consumption", f"{r.randrange(60, 220)} W")
    add(specs, "Power:Energy class", r.choice(["E", "F", "G", "D"]))
    sizes = sorted(r.sample([43, 50, 55, 65, 75, 85], 4))
    options = []
    for i, inch in enumerate(sizes):
        grams = int(inch * inch * 4.2) // 100 * 100
        extra = [("Variant features:Screen size", f'{inch}"'), ("Display:Size", inches_value(r, inch))]
        extra.append(("Physical:Weight", grams_value(r, grams, heavy=True)))
        options.append((f'{inch}"', f"{inch}", extra, 200.0 * i))
    features = [
        Feature(
            voice,
            "has a built-in voice assistant",
            "answers spoken requests through the remote",
            "does not have a voice assistant",
        ),
        Feature(
            hz >= 120,
            "supports 120 Hz gaming",
            "keeps fast games smooth at high frame rates",
            "does not support high-refresh gaming",
        ),
    ]
    summary = [f"Panel: {panel}, {hz} Hz", f"Sizes: {', '.join(str(s) for s in sizes)} inches"]
    fillers = [
        "The stand is centred, so it fits on narrow furniture.",
        "A game mode cuts input lag and switches on automatically with a console.",
        "Streaming apps come preinstalled and the menus respond quickly.",
        "Bezels are thin on three sides, and the back is tidy enough for a wall mount.",
        "Film mode keeps the original frame rate and colours accurate out of the box.",
    ]
    base = r.randrange(30, 150) * 10 - 1.0
    return Family(
        "televisions",
        ("Electronics", "TV & Video", "Televisions"),
        "television",
        specs,
        features,
        options,
        base,
        summary,
        fillers,
        y,
        m,
    )


CATEGORIES: list[tuple[str, Callable[[random.Random, list[str]], Family]]] = [
    ("phones", lambda r, c: phone_like(r, c, tablet=False)),
    ("tablets", lambda r, c: phone_like(r, c, tablet=True)),
    ("laptops", laptop),
    ("headphones", headphones),
    ("smartwatches", smartwatch),
    ("televisions", television),
]
# phones are the bulk of real catalogs; the weights keep the others well represented
CATEGORY_WEIGHTS = [4, 2, 2, 2, 2, 2]


GENERIC = [
    "Every unit ships with a two-year limited warranty and free returns within 30 days.",
    "The packaging is plastic-free and made from recycled card.",
    "Spare parts and repair guides are listed on the maker's support site.",
    "Stock is limited at launch, and some colours ship later than others.",
    "Trade-in offers can lower the price further at participating retailers.",
    "Firmware updates add features over time, so the first reviews may be out of date.",
    "The manual is short, and setup takes only a few minutes.",
    "Accessories from the previous model are compatible.",
    "Customer support is available by chat and phone seven days a week.",
]

# ---- heavy pages ----------------------------------------------------------------------
# Shop catalogues with full data sheets list a hundred or more entries per product: packaging,
# logistics, power, environment, ports and certificates, most of them shared across kinds, many
# as ranges ("0 - 40 °C") or counts. ``--heavy`` adds such a sheet to every family so that
# a product carries over a thousand quads, as on those catalogues. Each entry is (group, name,
# shape); the shapes draw a value in the noisy forms real sheets use.

DETAIL_GROUPS = {
    "Packaging data": ["Package width", "Package depth", "Package height", "Package weight", "Package type"],
    "Logistics data": [
        "Master carton width",
        "Master carton height",
        "Master carton weight",
        "Products per master carton",
        "Pallet height",
        "Layers per pallet",
        "Harmonized System code",
    ],
    "Power": [
        "Power consumption (typical)",
        "Power consumption (standby)",
        "Power consumption (max)",
        "AC input voltage",
        "AC input frequency",
        "Power supply type",
        "Energy efficiency class",
        "Annual energy consumption",
    ],
    "Operational conditions": [
        "Operating temperature (T-T)",
        "Storage temperature (T-T)",
        "Operating relative humidity (H-H)",
        "Storage relative humidity (H-H)",
        "Operating altitude",
        "Non-operating altitude",
    ],
    "Ports & interfaces": [
        "USB 2.0 ports quantity",
        "USB 3.2 Gen 1 (3.1 Gen 1) Type-A ports quantity",
        "USB Type-C ports quantity",
        "HDMI ports quantity",
        "Ethernet LAN (RJ-45) ports",
        "Headphone outputs",
        "Microphone in",
        "DC-in jack",
        "Charging port type",
        "Card reader integrated",
        "Compatible memory cards",
    ],
    "Network": [
        "Wi-Fi standards",
        "Bluetooth version",
        "Ethernet LAN",
        "Near Field Communication (NFC)",
        "Maximum data transfer rate",
        "Antenna type",
    ],
    "Design": [
        "Product colour",
        "Housing material",
        "Form factor",
        "Market positioning",
        "Country of origin",
        "Cable lock slot",
        "Cable lock slot type",
        "LED indicators",
        "Buttons quantity",
        "Finish",
    ],
    "Features": [
        "Child lock",
        "Auto power off",
        "Timer function",
        "Voice control",
        "Companion app",
        "Firmware updates over the air",
        "Kensington lock",
        "Wall mountable",
        "Eco mode",
        "Quick start guide",
        "Built-in speaker(s)",
        "Built-in microphone",
        "Remote control included",
    ],
    "Audio": ["Number of speakers", "RMS rated power", "Audio decoders", "Equalizer", "Frequency range"],
    "Battery details": [
        "Battery cells quantity",
        "Battery life (max)",
        "Battery recharge time",
        "Battery voltage",
        "Battery energy",
        "Battery removable",
    ],
    "Sustainability": [
        "Sustainability certificates",
        "Contains hazardous substances",
        "Recycled plastic share",
        "Packaging recyclable",
        "Repairability index",
        "Spare parts availability",
    ],
    "Certificates": [
        "Certification",
        "Safety standards",
        "Compliance industry standards",
        "Ingress protection (IP) code",
    ],
    "Other features": [
        "Warranty period",
        "Included accessories",
        "Cables included",
        "Manual",
        "Mounting type",
        "Product weight (with stand)",
        "Product depth (with stand)",
        "Display diagonal (metric)",
        "Colour temperature",
        "Noise level",
    ],
}

TEXT_CHOICES = [
    "Black",
    "White",
    "Grey",
    "Silver",
    "Aluminium",
    "Plastic",
    "Polycarbonate",
    "Recycled plastic",
    "Box",
    "Blister",
    "Mainstream",
    "Business",
    "Gaming",
    "Premium",
    "China",
    "Vietnam",
    "Taiwan",
    "Germany",
    "External",
    "Internal",
    "Wall",
    "Desk",
    "Matte",
    "Glossy",
    "CE, FCC, RoHS",
    "UL, CB",
    "EPEAT Gold, TCO Certified",
    "ENERGY STAR",
    "USB-C, HDMI",
    "SD, SDHC, SDXC",
    "AAC, MP3, FLAC",
    "Power cord, Quick start guide",
    "USB-C cable",
    "IP54",
    "IPX4",
    "Tabletop",
    "VESA",
]


Shape = Callable[[random.Random], str]
DETAIL_SHAPES: list[tuple[Callable[[str], bool], Shape]] = [
    # (does the entry's lower-case name call for it, a value of that shape); the first that fits
    (lambda n: "(t-t)" in n, lambda r: f"{r.choice([-20, -10, 0, 5, 10])} - {r.choice([35, 40, 45, 60])} °C"),
    (lambda n: "(h-h)" in n, lambda r: f"{r.choice([5, 10, 20])} - {r.choice([80, 85, 90, 95])}%"),
    (lambda n: "altitude" in n, lambda r: f"{r.choice([0, -15])} - {r.choice([3048, 5000, 12192])} m"),
    (lambda n: "voltage" in n and "ac" in n, lambda r: f"{r.choice([100, 110])} - {r.choice([240, 264])} V"),
    (lambda n: "frequency" in n, lambda r: r.choice(["50 - 60 Hz", "50/60 Hz", "20 - 20000 Hz"])),
    (
        lambda n: any(w in n for w in ("quantity", "ports", "per ")) or n.startswith(("number", "layers", "buttons")),
        lambda r: str(r.choice([0, 1, 1, 2, 2, 3, 4, 6, 8, 12])),
    ),
    (
        lambda n: any(w in n for w in ("width", "depth", "height")),
        lambda r: r.choice(
            [f"{r.uniform(40, 900):.1f} mm", f"{r.uniform(4, 90):.1f} cm", f"{r.randrange(50, 1200)}mm"]
        ),
    ),
    (lambda n: "weight" in n, lambda r: r.choice([f"{r.uniform(0.1, 25):.2f} kg", f"{r.randrange(80, 9000)} g"])),
    (lambda n: "power consumption" in n or "rms" in n, lambda r: f"{r.uniform(0.3, 250):.1f} W"),
    (lambda n: "energy consumption" in n, lambda r: f"{r.randrange(12, 400)} kWh"),
    (
        lambda n: "battery life" in n or "recharge time" in n,
        lambda r: r.choice([f"{r.randrange(2, 40)} h", f"{r.randrange(30, 600)} min"]),
    ),
    (lambda n: "battery voltage" in n, lambda r: f"{r.choice([3.7, 7.4, 11.1, 14.8])} V"),
    (lambda n: "battery energy" in n, lambda r: f"{r.randrange(10, 99)} Wh"),
    (lambda n: "data transfer" in n, lambda r: r.choice(["1000 Mbit/s", "2402 Mbit/s", "480 Mbit/s", "10 Gbit/s"])),
    (lambda n: "warranty" in n, lambda r: r.choice(["1 year(s)", "2 year(s)", "3 year(s)", "24 months"])),
    (
        lambda n: "share" in n or "repairability" in n,
        lambda r: r.choice([f"{r.randrange(5, 80)}%", f"{r.uniform(3, 9):.1f}"]),
    ),
    (lambda n: "colour temperature" in n, lambda r: f"{r.choice([2700, 4000, 6500, 9300])} K"),
    (lambda n: "noise" in n, lambda r: f"{r.randrange(18, 45)} dB"),
    (lambda n: "diagonal" in n, lambda r: f"{r.uniform(13, 190):.1f} cm"),
    (lambda n: "class" in n, lambda r: r.choice("ABCDEFG")),
    (lambda n: "code" in n and "harmonized" in n, lambda r: str(r.randrange(84710000, 85299999))),
]


def _detail_value(r: random.Random, name: str) -> str | None:
    """One value of a data-sheet entry, in a shape that suits its name (:data:`DETAIL_SHAPES`)."""
    low = name.lower()
    if r.random() < 0.08:
        return None  # sheets leave entries out
    for fits, shape in DETAIL_SHAPES:
        if fits(low):
            return shape(r)
    if r.random() < 0.45:
        return r.choice(["Yes", "No", "Yes", "N"])  # yes/no features, "N" as some sheets write it
    return r.choice(TEXT_CHOICES)


def detail_specs(seed: int, family: int) -> list[Spec]:
    """A family's data sheet: about 90 entries, the same for every variant of the family.

    Drawn from a generator of its own (seeded by the catalog seed and the family number), so the
    pages of an ordinary catalog stay byte for byte what they were without ``--heavy``.
    """
    r = random.Random(seed * 1_000_003 + family)
    specs: list[Spec] = []
    for group, names in DETAIL_GROUPS.items():
        for name in names:
            add(specs, f"{group}:{name}", _detail_value(r, name))
    return specs


# ---- pages --------------------------------------------------------------------------


def price_text(gbp: float, market: str) -> str:
    currency, _, rate = MARKETS[market]
    if rate == 1.0:
        amount = gbp
    elif market == "in":
        amount = round(gbp * rate, -2) - 1  # rupee prices end in ...99 like real listings
    else:
        amount = round(gbp * rate) - 0.01
    return f"{amount:.2f} {currency}"


def prose(
    r: random.Random,
    fam: Family,
    prod_range: str,
    line: str,
    variants: list[tuple[str, str, float]],
    markets: Sequence[str],
) -> str:
    brand = prod_range.split(" ")[0]
    when = f"{MONTHS[fam.month - 1]} {fam.year}"
    intro = r.choice(
        [
            f"The {prod_range} is {brand}'s {r.choice(['latest', 'newest', 'mid-range', 'flagship'])} {fam.noun}, launched in {when}.",
            f"{brand} introduced the {prod_range} in {when} as part of its {line} range.",
            f"Meet the {prod_range}, a {fam.noun} from {brand} that arrived in {when}.",
        ]
    )
    intro += " " + r.choice(
        [
            f"It aims to give everyday buyers the essentials without the premium price of the top {fam.category}.",
            f"It sits in the middle of the {line} family and shares most of its design with last year's model.",
            "Reviewers praised its build quality and its sensible set of features for the money.",
        ]
    )
    intro += " " + r.choice(
        [
            "It is aimed at students and commuters who want something dependable.",
            "The target buyer is someone upgrading from a model three or four years old.",
            "Enthusiasts will find a few compromises, but most people will not notice them.",
            f"Few {fam.category} at this price offer as much, according to early reviews.",
        ]
    )
    subjects = [f"The {prod_range}", "It", f"This {fam.noun}", f"The {line}"]
    said = []
    for f in fam.features:
        roll = r.random()
        if roll < 0.15:
            continue  # some features are only in the spec table, as on real pages
        subj = r.choice(subjects)
        if not f.present:
            said.append(f"{subj} {f.negated}.")
        elif roll < 0.55:
            said.append(f"{subj} {f.stated}.")
        else:
            said.append(f"{subj} {f.paraphrase}.")
    body = " ".join(r.sample(fam.fillers, min(len(fam.fillers), r.randrange(4, 6))))
    closing = " ".join(r.sample(GENERIC, r.randrange(3, 5)))
    names = ", ".join(n for n, _, _ in variants)
    opts = f"It comes in {len(variants)} versions: {names}." if len(variants) > 1 else f"It comes only as {names}."
    lines = [f"# {prod_range}", "", intro + " " + opts, ""]
    if said:
        lines += [" ".join(said), ""]
    lines += [
        body,
        "",
        closing,
        "",
        f"**Markets:** {', '.join(markets)} ({', '.join(MARKETS[k][1] for k in markets)})",
        "",
        "## Key specs",
        "",
    ]
    lines += [f"- {s}" for s in fam.summary]
    lines.append(f"- Released: {when}")
    for name, _, gbp in variants:
        lines.append(f"- {name}: " + " / ".join(price_text(gbp, k) for k in markets))
    return "\n".join(lines) + "\n"


@dataclass
class Counts:
    documents: int = 0
    products: int = 0
    spec_values: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"documents": self.documents, "products": self.products, "spec_values": self.spec_values}


def iter_pages(
    products: int,
    *,
    seed: int = 0,
    markets: Sequence[str] = ("uk",),
    variants_per_family: tuple[int, int] = (1, 4),
    counts: Counts | None = None,
    heavy: bool = False,
) -> Iterator[tuple[str, str, list[Variant]]]:
    """``(stem, markdown, variants)`` pages holding exactly ``products`` variants in all.

    Arguments are checked on the call, not on the first page, so a bad call fails
    before anything is written.
    """
    unknown = [k for k in markets if k not in MARKETS]
    if unknown or not markets:
        raise ValueError(f"unknown markets {unknown} (known: {', '.join(MARKETS)})")
    lo, hi = variants_per_family
    if not 1 <= lo <= hi <= 4:
        raise ValueError(f"variants per family must lie within 1-4, got {lo}-{hi}")
    return _pages(products, seed, tuple(markets), lo, hi, counts if counts is not None else Counts(), heavy)


def _pages(
    products: int, seed: int, markets: tuple[str, ...], lo: int, hi: int, counts: Counts, heavy: bool
) -> Iterator[tuple[str, str, list[Variant]]]:
    r = random.Random(seed)
    brands = unique_words(r, 60, 2)
    chips = unique_words(r, 6, 2)
    lines = LINE_WORDS + unique_words(r, 40, 2)
    seen: set[str] = set()
    made = 0
    i = 0
    while made < products:
        kind, build = r.choices(CATEGORIES, weights=CATEGORY_WEIGHTS)[0]
        fam = build(r, chips)
        brand, line = r.choice(brands), r.choice(lines)
        prod_range = ""
        while not prod_range or prod_range in seen:
            model = r.choice("ASXZTM") + str(r.randrange(1, 100)) + r.choice(MODEL_SUFFIXES)
            prod_range = f"{brand} {line} {model}"
        seen.add(prod_range)
        k = min(r.randint(lo, hi), products - made, len(fam.options))
        picked = sorted(r.sample(range(len(fam.options)), k))
        # the family number keeps codes unique: product identity hashes name and code together
        code = f"{brand[:2].upper()}-{i:05X}"
        variants: list[Variant] = []
        priced: list[tuple[str, str, float]] = []
        sheet = detail_specs(seed, i) if heavy else []
        for j in picked:
            label, short, extra, step = fam.options[j]
            gbp = fam.base_price + step
            specs = [("Model Code", f"{code}-{short}"), *extra, *fam.specs, *sheet]
            specs.append(("Price", price_text(gbp, markets[0])))
            specs += [(f"Price:{k_.upper()}", price_text(gbp, k_)) for k_ in markets[1:]]
            variants.append(Variant(f"{prod_range} {label}", prod_range, fam.categories, tuple(specs)))
            priced.append((label, short, gbp))
            counts.spec_values += len(specs)
        markdown = prose(r, fam, prod_range, line, priced, markets)
        stem = f"{i:07d}-{kind}"
        i += 1
        made += len(variants)
        counts.documents += 1
        counts.products += len(variants)
        yield stem, markdown, variants


def generate(
    out: str | os.PathLike,
    products: int,
    *,
    seed: int = 0,
    markets: Sequence[str] = ("uk",),
    variants_per_family: tuple[int, int] = (1, 4),
    heavy: bool = False,
) -> dict[str, int]:
    """Write the catalog under ``out`` (which must be new or empty); returns its counts.
    ``heavy``: every family also gets a data sheet of about 90 entries (:func:`detail_specs`)."""
    out = Path(out)
    # leftover pages of a bigger run would silently join this catalog
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty")
    counts = Counts()
    pages = iter_pages(
        products, seed=seed, markets=markets, variants_per_family=variants_per_family, counts=counts, heavy=heavy
    )
    write_dataset(out, pages)
    return counts.as_dict()


MISSING_RATE = 0.05  # share of documents absent from each market after the first


def market_page(
    stem: str, markdown: str, variants: list[Variant], markets: Sequence[str], market: str
) -> tuple[str, str, list[Variant]]:
    """One page as ``market`` shows it: its price alone under ``Price``, its name on the page."""
    k = list(markets).index(market)
    key = "Price" if k == 0 else f"Price:{market.upper()}"
    own = []
    for v in variants:
        specs = dict(v.specs)
        price = specs[key]
        kept = [(n, x) for n, x in v.specs if n != "Price" and not n.startswith("Price:")]
        own.append(Variant(v.name, v.prod_range, v.categories, (*kept, ("Price", price))))
    lines = markdown.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("**Markets:** "):
            lines[i] = f"**Markets:** {market} ({MARKETS[market][1]})"
    # the last lines list each variant's prices, one per market in order
    for i in range(len(lines) - 1 - len(variants), len(lines) - 1):
        name, _, prices = lines[i].rpartition(": ")
        lines[i] = f"{name}: {prices.split(' / ')[k]}"
    return stem, "\n".join(lines), own


def missing_in(seed: int, stem: str, market: str, markets: Sequence[str]) -> bool:
    """Whether a document is left out of ``market``'s snapshot (own generator: the pages' draws stay as they were)."""
    if market == markets[0]:
        return False
    return random.Random(f"{seed}/{stem}/{market}").random() < MISSING_RATE


def generate_per_market(
    out: str | os.PathLike,
    products: int,
    *,
    seed: int = 0,
    markets: Sequence[str] = ("uk", "de"),
    variants_per_family: tuple[int, int] = (1, 4),
    heavy: bool = False,
) -> dict[str, dict[str, int]]:
    """Write ``out/<market>/`` for each market (see the module doc); returns counts per market."""
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty")
    pages = iter_pages(products, seed=seed, markets=markets, variants_per_family=variants_per_family, heavy=heavy)
    counts = {m: Counts() for m in markets}
    buckets: dict[str, list[tuple[str, str, list[Variant]]]] = {m: [] for m in markets}

    def flush() -> None:
        for m, held in buckets.items():
            write_dataset(out / m, held)
            held.clear()

    for stem, markdown, variants in pages:
        for m in markets:
            if missing_in(seed, stem, m, markets):
                continue
            page = market_page(stem, markdown, variants, markets, m)
            buckets[m].append(page)
            counts[m].documents += 1
            counts[m].products += len(page[2])
            counts[m].spec_values += sum(len(v.specs) for v in page[2])
        if len(buckets[markets[0]]) >= 256:  # stream: a large catalog never sits in memory
            flush()
    flush()
    return {m: c.as_dict() for m, c in counts.items()}


def mutate(root: str | os.PathLike, percent: float, *, seed: int = 0) -> list[str]:
    """Change ``percent`` % of the documents under ``root`` in place (at least one when any
    exist): the first variant's price goes up by 1 and the page gains a line. Returns the
    changed document ids (directory names), sorted; the same arguments pick the same ones."""
    if not 0 < percent <= 100:
        raise ValueError(f"percent must lie in (0, 100], got {percent}")
    root = Path(root)
    docs = sorted(d.name for d in root.iterdir() if d.is_dir() and d.name.startswith("file-"))
    if not docs:
        return []
    n = max(1, round(len(docs) * percent / 100))
    picked = sorted(random.Random(seed).sample(docs, n))
    for doc in picked:
        stem = doc.removeprefix("file-")
        inject = root / doc / f"inject-{stem}.json"
        if inject.is_file():
            recs = json.loads(inject.read_text(encoding="utf-8"))
            if recs and "Price" in recs[0].get("specs", {}):
                amount, _, currency = recs[0]["specs"]["Price"].partition(" ")
                recs[0]["specs"]["Price"] = f"{float(amount) + 1:.2f} {currency}"
            inject.write_text(json.dumps(recs, ensure_ascii=False, indent=1), encoding="utf-8")
        page = root / doc / f"part-{stem}.md"
        if page.is_file():
            with page.open("a", encoding="utf-8") as fh:
                fh.write(f"- Updated: revision {seed}\n")
    return picked


def parse_range(text: str) -> tuple[int, int]:
    lo, _, hi = text.partition("-")
    return int(lo), int(hi or lo)


def main_mutate(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="gen_catalog.py mutate", description=mutate.__doc__)
    ap.add_argument("dir", type=Path, help="dataset directory to change in place")
    ap.add_argument("--percent", type=float, required=True, help="share of documents to change, e.g. 1")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    try:
        changed = mutate(args.dir, args.percent, seed=args.seed)
    except (ValueError, OSError) as e:
        print(f"gen_catalog mutate: {e}", file=sys.stderr)
        return 2
    print(json.dumps({"changed": changed, "count": len(changed)}))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["mutate"]:
        return main_mutate(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="dataset directory to create (must be new or empty)")
    ap.add_argument("--products", type=int, required=True, help="number of product variants in all")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--markets", default="uk", help="comma-separated: the first one's price goes in 'Price' (uk, de, in)"
    )
    ap.add_argument("--variants-per-family", default="1-4", type=parse_range, help="e.g. 1-4 or 2")
    ap.add_argument(
        "--per-market-dirs", action="store_true", help="one dataset directory per market: OUT/<market>/ (see above)"
    )
    ap.add_argument(
        "--heavy",
        action="store_true",
        help="add a data sheet of about 90 entries per family (over 1,000 quads a product)",
    )
    args = ap.parse_args(argv)
    markets = tuple(m.strip() for m in args.markets.split(",") if m.strip())
    t0 = time.perf_counter()
    try:
        options = {"seed": args.seed, "markets": markets, "variants_per_family": args.variants_per_family}
        if args.per_market_dirs:
            per = generate_per_market(args.out, args.products, **options, heavy=args.heavy)
            for m, c in per.items():
                print(f"{m}: documents {c['documents']:,}  products {c['products']:,}")
            return 0
        counts = generate(args.out, args.products, **options, heavy=args.heavy)
    except (ValueError, FileExistsError) as e:
        print(f"gen_catalog: {e}", file=sys.stderr)
        return 2
    secs = time.perf_counter() - t0
    print(
        f"documents {counts['documents']:,}  products {counts['products']:,}  spec values {counts['spec_values']:,}  {secs:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
