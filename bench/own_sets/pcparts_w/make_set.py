"""A new-wording question set over the pcparts catalogue ("pcparts_w"), 2026-12-07.

It asks about the same 1,000 products as ``bench/own_sets/pcparts`` (500 Intel processors, 500
graphics cards of the Kaggle "Computer Parts" data): the base set's ``load()`` and
``write_catalog()`` are imported and used unchanged, so the catalogue (and the index built from it)
is byte-identical. Only the questions are new. They were written blind to the question-reader code
(nothing under ``dualgraph/``, ``tests/`` or ``docs/`` was read, and the system was not run), in the
words shoppers and analysts use rather than the spec labels ("how many lanes", "a grand", "two
gigs", "beefier PSU", "°F"), mostly over spec entries and combinations the base set never asks
about (status, bus, memory channels, PCIe lanes, AVX-512, VT-x, junction temperature, power
connectors, recommended PSU, DVI/VGA, OpenGL, L2 cache, TMUs/ROPs, texture rate, bandwidth), plus
some of its concepts re-asked in other words. Every gold is computed here from the source fields.

    python3 bench/own_sets/pcparts_w/make_set.py --out DIR   # the same catalog as pcparts
    python3 bench/own_sets/pcparts_w/make_set.py --check     # questions.json current
    python3 bench/own_sets/pcparts_w/make_set.py --show      # print every question with its gold

Conventions of the gold (those of the base set, restated):

* "under / less than / below / over / more than / above" are strict; "at least / or more / or
  less / up to / or faster" inclusive; "exactly N" or a bare "N <unit>" is equality.
* A blank, "N/A" or placeholder cell ("\\n- " core speed) never satisfies a condition and is left
  out of averages, sums and extremes.
* Units are converted exactly: 1 GHz = 1000 MHz; 1 GB = 1024 MB (card memory is written in MB:
  "two gigs" = 2048 MB); L2 cache KB / 1024 = MB ("1.75 MB" = "1792KB"); 1 TB = 1024 GB for a
  processor's max memory (thresholds leave no value between the 1000 and 1024 readings);
  °F = °C × 9/5 + 32; "a grand" = $1,000.
* Prices are US dollars as listed; a price range ("$612.00 - $616.00") satisfies "under X" only
  when both ends do, thresholds are checked to split no range, and price superlatives and ratios
  use single prices only (a range has none).
* Processors / CPUs / chips are the "Processors" category, graphics cards / GPUs / video cards the
  "Graphics Cards" category. A processor's family (Core, Xeon, Pentium, Celeron, Atom, Xeon Phi)
  is the one in its name ("Xeon" takes in Xeon Phi); "Core i3/i5/i7" is the processor number
  prefix; "desktop / mobile / server / embedded" processors are its Vertical Segment. A card's
  brand is its Manufacturer (Nvidia, AMD, ATI, Intel: ATI is not AMD); "Quadro", "FirePro" and
  "Radeon" are words of the card's name. Text values (status, memory type, connector, bus) are
  compared exactly, trailing spaces stripped; a value answer in text is the cell as written.
* Averages are over the products that have the value, rounded as the question says.
* Years: a processor's launch year is the two digits of its launch quarter ("Q3'16" = 2016); a
  card's release year the year of its release date.
* Prose-only facts (Hyper-Threading and ECC for processors; SLI / CrossFire "pairing with a second
  card" and notebook (laptop) GPU for cards) are read from the page text only: a page that states
  the fact has it, a page that states its negation lacks it, a page that says nothing neither has
  nor lacks it (so it is in neither a "with" nor a "without" list). A "desktop card" or "not a
  laptop chip" is a page that says it is not a notebook GPU.
* Superlatives and two-product comparisons are asserted to have one winner (a tie is a list);
  list gold holds 1..40 names, sorted.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUESTIONS = HERE / "questions.json"
SEED = 20261207
DEBUG = False  # True: a gold outside its bounds is printed, not asserted

sys.path.insert(0, str(HERE.parent))
from shared import (  # noqa: E402
    AGGREGATION,
    GROUP,
    INVERSE,
    MULTI,
    REASONING,
    BoundedBuilder,
    base_set,
    clean_number,
    set_main,
)

base = base_set("pcparts")

load = base.load
write_catalog = base.write_catalog
Part = base.Part
L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION


# ---- source values the base set does not read ----------------------------------------------


def cell(p, col: str) -> str:
    return (p.raw.get(col) or "").strip()


def number(p, col: str) -> float | None:
    """The first number of a cell ("48" -> 48, "500 Watt & 33 Amps" -> 500, "4.5" -> 4.5)."""
    v = cell(p, col)
    return base.num(v) if v and v != "N/A" else None


def junction_c(p) -> float | None:
    """The highest temperature a processor's T junction cell gives, in °C ("-40°C to 110°C" -> 110)."""
    found = [float(x) for x in re.findall(r"(-?\d+(?:\.\d+)?)\s*°?\s*C\b", cell(p, "T"))]
    return max(found) if found else None


def l2_kb(p) -> float | None:
    """A card's L2 cache in KB, only where it is one figure ("1792KB"; "2048KB(x2)" is not)."""
    m = re.fullmatch(r"(\d+)KB", cell(p, "L2_Cache"))
    return float(m.group(1)) if m else None


def bandwidth(p) -> float | None:
    """A card's memory bandwidth in GB/s ("224.4GB/sec")."""
    m = re.fullmatch(r"([\d.]+)GB/sec", cell(p, "Memory_Bandwidth"))
    return float(m.group(1)) if m else None


def cpu_bandwidth(p) -> float | None:
    m = re.fullmatch(r"([\d.]+) GB/s", cell(p, "Max_Memory_Bandwidth"))
    return float(m.group(1)) if m else None


def plain_int(p, col: str) -> int | None:
    v = cell(p, col)
    return int(v) if v.isdigit() else None


def launched(p) -> tuple[int, int] | None:
    y, q = p.launch_year(), p.launch_quarter()
    return (y, q) if y and q else None


def no_range_split(pool, cut: float) -> None:
    for p in pool:
        pr = p.prices()
        assert not (pr and pr[0] < cut <= pr[1]), (p.name, p.price, cut)


def yes_no(v: bool) -> str:
    return "yes" if v else "no"


# ---- questions ----------------------------------------------------------------------------


def build(parts) -> list[dict]:
    b = BoundedBuilder(parts, debug=DEBUG)
    cpus = [p for p in parts if p.is_cpu]
    gpus = [p for p in parts if not p.is_cpu]
    fam = lambda f: [p for p in cpus if p.family == f or p.family.startswith(f + " ")]  # noqa: E731 (Xeon: + Phi)
    seg = lambda s: [p for p in cpus if p.segment() == s]  # noqa: E731
    brand = lambda m: [p for p in gpus if p.maker == m]  # noqa: E731
    core = lambda tier: [p for p in cpus if re.search(rf"\b{tier}-", p.name)]  # noqa: E731
    names = lambda pool: sorted(p.name for p in pool)  # noqa: E731
    fact = lambda p, f, v: p.facts.get(f) is v  # noqa: E731

    # ==== Inverse: one condition -> list ======================================================
    b.add(
        "Show me the processors that have only been announced so far and aren't launched yet.",
        L,
        names=names(p for p in cpus if cell(p, "Status") == "Announced"),
    )
    b.add(
        "Any graphics cards that need two 8-pin power plugs?",
        L,
        names=names(p for p in gpus if cell(p, "Power_Connector") == "2x 8-pin"),
    )
    b.add(
        "I'm looking for a CPU with 48 PCIe lanes. What do you have?",
        L,
        names=names(p for p in cpus if plain_int(p, "Max_nb_of_PCI_Express_Lanes") == 48),
    )
    b.add(
        "List all video cards with three or more DVI outputs.",
        L,
        names=names(p for p in gpus if (plain_int(p, "DVI_Connection") or 0) >= 3),
    )
    b.add(
        "Which chips sit on a 1333 MHz front-side bus?",
        L,
        names=names(p for p in cpus if cell(p, "Bus_Speed") == "1333 MHz FSB"),
    )
    b.add(
        "Do you have any Atom chips that are 32-bit only?",
        L,
        names=names(p for p in fam("Atom") if cell(p, "Instruction_Set") == "32-bit"),
    )
    b.add(
        "Which GPUs list 4K (3840 x 2160) as the best resolution to run them at?",
        L,
        names=names(p for p in gpus if cell(p, "Best_Resolution") == "3840 x 2160"),
    )
    b.add(
        "Which graphics cards are stuck on an OpenGL version older than 2.0?",
        L,
        names=names(p for p in gpus if number(p, "Open_GL") is not None and number(p, "Open_GL") < 2),
    )
    b.add(
        "Which Nvidia cards come with 1.75 MB of L2 cache?",
        L,
        names=names(p for p in brand("Nvidia") if l2_kb(p) == 1.75 * 1024),
    )
    b.add(
        "Which CPUs turbo to 4 GHz or higher?",
        L,
        names=names(p for p in cpus if (p.turbo_ghz() or 0) >= 4),
    )
    b.add(
        "Which graphics cards have a GPU core clock above 1.5 GHz?",
        L,
        names=names(p for p in gpus if (p.core_mhz() or 0) > 1500),
    )
    b.add(
        "List the processors with AVX-512.",
        L,
        names=names(p for p in cpus if "AVX-512" in cell(p, "Instruction_Set_Extensions")),
    )
    # prose-only facts
    b.add(
        "Which Core i3 chips do hyper-threading?",
        L,
        "tkg",
        names=names(p for p in core("i3") if fact(p, "ht", True)),
    )
    b.add(
        "Which Xeons can't take ECC memory?",
        L,
        "tkg",
        names=names(p for p in fam("Xeon") if fact(p, "ecc", False)),
    )
    b.add(
        "Which Quadro cards can be linked with a second card in SLI?",
        L,
        "tkg",
        names=names(p for p in gpus if "Quadro" in p.name and fact(p, "multi", True)),
    )
    b.add(
        "Which FirePro cards have no CrossFire support?",
        L,
        "tkg",
        names=names(p for p in gpus if "FirePro" in p.name and fact(p, "multi", False)),
    )

    # ==== Multi-Condition: 2-3 conditions -> list ==============================================
    b.add(
        "Any Nvidia cards with GDDR5X memory for under a grand?",
        M,
        names=names(p for p in brand("Nvidia") if p.mem_type() == "GDDR5X" and p.prices() and p.prices()[1] < 1000),
    )
    b.add(
        "I need a server chip with at least 12 cores that can take a terabyte of RAM or more.",
        M,
        names=names(p for p in seg("Server") if (p.cores() or 0) >= 12 and (p.max_mem_gb() or 0) >= 1024),
    )
    b.add(
        "Which dual-core desktop processors lack VT-x virtualization?",
        M,
        names=names(
            p for p in seg("Desktop") if p.cores() == 2 and cell(p, "Intel_Virtualization_Technology_VTx_") == "No"
        ),
    )
    b.add(
        "Show me Nvidia cards that take one 6-pin plus one 8-pin connector and have 6 GB of VRAM or more.",
        M,
        names=names(
            p
            for p in brand("Nvidia")
            if cell(p, "Power_Connector") == "1x 6-pin + 1x 8-pin" and (p.mem_mb() or 0) >= 6 * 1024
        ),
    )
    b.add(
        "Which Radeon cards with half a gig of memory or less still have an HDMI port?",
        M,
        names=names(
            p
            for p in gpus
            if "Radeon" in p.name
            and p.mem_mb() is not None
            and p.mem_mb() <= 512
            and (p.ports("HDMI_Connection") or 0) >= 1
        ),
    )
    b.add(
        "Which Celerons launched in 2016 or later are rated at 10 W or less?",
        M,
        names=names(
            p for p in fam("Celeron") if (p.launch_year() or 0) >= 2016 and p.tdp() is not None and p.tdp() <= 10
        ),
    )
    # prose-only facts, several of them negated
    b.add(
        "Which Nvidia cards with 4 GB or more can't be run in SLI?",
        M,
        "tkg",
        names=names(p for p in brand("Nvidia") if (p.mem_mb() or 0) >= 4096 and fact(p, "multi", False)),
    )
    b.add(
        "Which quad-core mobile Core i7s come without ECC memory support?",
        M,
        "tkg",
        names=names(p for p in core("i7") if p.segment() == "Mobile" and p.cores() == 4 and fact(p, "ecc", False)),
    )
    b.add(
        "Which server processors from 2012 support both ECC RAM and Hyper-Threading?",
        M,
        "tkg",
        names=names(
            p for p in seg("Server") if p.launch_year() == 2012 and fact(p, "ecc", True) and fact(p, "ht", True)
        ),
    )
    b.add(
        "Which Pentiums without Hyper-Threading have a TDP of 65 W or more?",
        M,
        "tkg",
        names=names(p for p in fam("Pentium") if fact(p, "ht", False) and (p.tdp() or 0) >= 65),
    )
    b.add(
        "Which AMD laptop GPUs have GDDR5 and at least a gig of memory?",
        M,
        "tkg",
        names=names(
            p
            for p in brand("AMD")
            if fact(p, "notebook", True) and p.mem_type() == "GDDR5" and (p.mem_mb() or 0) >= 1024
        ),
    )
    b.add(
        "Which AMD cards that aren't laptop chips draw less than 75 watts?",
        M,
        "tkg",
        names=names(p for p in brand("AMD") if fact(p, "notebook", False) and p.watts() is not None and p.watts() < 75),
    )

    # ==== Group comparison: two products or two groups ========================================
    rng = random.Random(SEED)

    def pair(pool, key):
        pool = sorted((p for p in pool if key(p) is not None), key=lambda p: p.name)
        for _ in range(500):
            x, y = rng.sample(pool, 2)
            if key(x) != key(y):
                return x, y
        raise AssertionError("no pair")

    x, y = pair(seg("Mobile"), Part.tdp)
    b.add(f"Does the {x.name} have a higher TDP than the {y.name}?", G, value=yes_no(x.tdp() > y.tdp()))
    x, y = pair(brand("Nvidia"), Part.boost_mhz)
    b.add(
        f"Which boosts higher, the {x.name} or the {y.name}?",
        G,
        value=max((x, y), key=Part.boost_mhz).name,
    )
    tmus = lambda p: plain_int(p, "TMUs")  # noqa: E731
    x, y = pair(brand("AMD"), tmus)
    b.add(
        f"Between the {x.name} and the {y.name}, which has more texture units?",
        G,
        value=max((x, y), key=tmus).name,
    )
    lanes = lambda p: plain_int(p, "Max_nb_of_PCI_Express_Lanes")  # noqa: E731
    x, y = pair(fam("Xeon"), lanes)
    b.add(f"Which gives me more PCIe lanes: {x.name} or {y.name}?", G, value=max((x, y), key=lanes).name)
    x, y = pair(fam("Core"), launched)
    b.add(
        f"Which is the newer chip, the {x.name} or the {y.name}?",
        G,
        value=max((x, y), key=launched).name,
    )
    psu = lambda p: number(p, "PSU")  # noqa: E731
    x, y = pair(gpus, psu)
    b.add(
        f"Which one needs the beefier power supply, {x.name} or {y.name}?",
        G,
        value=max((x, y), key=psu).name,
    )
    x = rng.choice(sorted((p for p in brand("Nvidia") if fact(p, "multi", True)), key=lambda p: p.name))
    y = rng.choice(sorted((p for p in brand("Nvidia") if fact(p, "multi", False)), key=lambda p: p.name))
    b.add(f"{y.name} or {x.name}: which one can I pair up in SLI?", G, "tkg", value=x.name)
    # three AMD cards whose pages state CrossFire either way; gold: those that support it
    trio = rng.sample(sorted((p for p in brand("AMD") if p.facts["multi"] is not None), key=lambda p: p.name), 3)
    assert 1 <= sum(p.facts["multi"] for p in trio) <= 2, [p.name for p in trio]
    b.add(
        f"Of the {trio[0].name}, the {trio[1].name} and the {trio[2].name}, which support CrossFire?",
        G,
        "tkg",
        names=names(p for p in trio if fact(p, "multi", True)),
    )
    x = rng.choice(sorted((p for p in fam("Xeon") if fact(p, "ecc", True)), key=lambda p: p.name))
    y = rng.choice(sorted((p for p in fam("Core") if fact(p, "ecc", False)), key=lambda p: p.name))
    b.add(f"Which of these works with ECC RAM, the {x.name} or the {y.name}?", G, "tkg", value=x.name)
    # two groups: the brand whose cards have the higher mean max power (cards with a Max Power value)
    avg_w = {
        m: sum(p.watts() for p in brand(m) if p.watts()) / len([p for p in brand(m) if p.watts()])
        for m in ("Nvidia", "AMD")
    }
    assert abs(avg_w["Nvidia"] - avg_w["AMD"]) > 5, avg_w
    b.add(
        "On average, which brand's graphics cards are more power hungry, Nvidia's or AMD's?",
        G,
        value=max(avg_w, key=avg_w.get),
    )

    # ==== Reasoning: a need -> a rule over the catalogue; single facts of one product ==========
    # rule: Desktop segment, exactly 4 cores, page says Hyper-Threading; lowest single price
    pool = [p for p in seg("Desktop") if p.cores() == 4 and fact(p, "ht", True) and p.prices()]
    win = b.best_one(pool, lambda p: p.prices()[1], low=True)
    assert win.usd() is not None and all(p.prices()[0] > win.usd() for p in pool if p is not win)
    b.add(
        "I want a quad-core desktop CPU with Hyper-Threading and want to spend as little as possible. "
        "Which is the cheapest?",
        R,
        "tkg",
        value=win.name,
    )
    # rule: Nvidia, memory >= 4096 MB; lowest Max Power
    pool = [p for p in brand("Nvidia") if (p.mem_mb() or 0) >= 4096]
    b.add(
        "I'd like an Nvidia card with at least 4 gigs of VRAM that sips as little power as possible. Which one?",
        R,
        value=b.best_one(pool, Part.watts, low=True).name,
    )
    # rule: Xeon family, page says ECC supported, cores >= 4, TDP <= 45 W
    b.add(
        "For a quiet home server I need a Xeon with ECC support, at least four cores and a TDP of 45 W or less. "
        "Which ones fit?",
        R,
        "tkg",
        names=names(
            p for p in fam("Xeon") if fact(p, "ecc", True) and (p.cores() or 0) >= 4 and (p.tdp() or 999) <= 45
        ),
    )
    # rule: AMD, memory >= 4096 MB, recommended PSU (first number of the cell, watts) <= 450
    b.add(
        "My power supply is 450 W. Which AMD cards with 4 GB or more are happy with a PSU that size?",
        R,
        names=names(p for p in brand("AMD") if (p.mem_mb() or 0) >= 4096 and psu(p) is not None and psu(p) <= 450),
    )
    # rule: server segment, single list price; highest cores / price
    pool = [p for p in seg("Server") if p.usd() and p.cores()]
    b.add(
        "Among server processors with a list price, which gives you the most cores per dollar?",
        R,
        value=b.best_one(pool, lambda p: p.cores() / p.usd()).name,
    )
    # rule: Nvidia, page says not a notebook GPU and no SLI; most memory (a tie is a list)
    pool = [p for p in brand("Nvidia") if fact(p, "notebook", False) and fact(p, "multi", False)]
    winners, _ = b.best(pool, Part.mem_mb)
    b.add(
        "I want a desktop Nvidia card that won't do SLI anyway, with as much video memory as possible. "
        "Which should I look at?",
        R,
        "tkg",
        names=names(winners),
    )
    # single facts of one named product
    p = rng.choice(sorted((p for p in cpus if cell(p, "Status") == "End of Interactive Support"), key=lambda p: p.name))
    b.add(f"What's the current status of the {p.name}?", R, value=cell(p, "Status"))
    p = rng.choice(sorted((p for p in fam("Xeon") if p.facts["ecc"] is not None), key=lambda p: p.name))
    b.add(f"Can I use ECC RAM with the {p.name}?", R, "tkg", value=yes_no(p.facts["ecc"]))
    p = rng.choice(sorted((p for p in cpus if cpu_bandwidth(p)), key=lambda p: p.name))
    b.add(f"What's the max memory bandwidth of the {p.name}, in GB/s?", R, value=clean_number(cpu_bandwidth(p)))

    # ==== Aggregation: count, average, sum, extremes ===========================================
    tdps = [p.tdp() for p in fam("Atom") if p.tdp() is not None]
    b.add(
        "What is the average TDP of the Atom processors, to one decimal place?",
        A,
        value=round(sum(tdps) / len(tdps), 1),
    )
    b.add(
        "Add up the cores of every Xeon Phi: what's the total?",
        A,
        value=sum(p.cores() for p in fam("Xeon Phi") if p.cores()),
    )
    top_c = b.top_value(cpus, junction_c)
    b.add(
        "What's the highest junction temperature any processor is rated for, in degrees Fahrenheit?",
        A,
        value=clean_number(top_c * 9 / 5 + 32),
    )
    b.add(
        "How many graphics cards can't be paired with a second card at all, i.e. no SLI or CrossFire?",
        A,
        "tkg",
        value=len([p for p in gpus if fact(p, "multi", False)]),
    )
    ws = [p.watts() for p in brand("AMD") if fact(p, "notebook", True) and p.watts() is not None]
    b.add(
        "What's the average max power of AMD's laptop GPUs, rounded to the nearest watt?",
        A,
        "tkg",
        value=round(sum(ws) / len(ws)),
    )
    texture = lambda p: number(p, "Texture_Rate")  # noqa: E731
    b.add("Which graphics card has the highest texture fill rate?", A, value=b.best_one(gpus, texture).name)
    pool = [p for p in brand("Nvidia") if p.mem_mb() == 8 * 1024 and p.usd()]
    b.add(
        "What's the cheapest Nvidia card with exactly 8 gigs of VRAM?",
        A,
        value=b.best_one(pool, Part.usd, low=True).name,
    )
    b.add(
        "How many video cards don't need any extra power connector?",
        A,
        value=len([p for p in gpus if cell(p, "Power_Connector") == "None"]),
    )
    b.add(
        "What's the smallest manufacturing process among AMD graphics cards, in nanometres?",
        A,
        value=b.top_value(brand("AMD"), Part.nm, low=True),
    )
    th = [p.threads() for p in core("i7") if p.threads()]
    b.add(
        "On average, how many threads does a Core i7 in the catalogue have? Round to two decimals.",
        A,
        value=round(sum(th) / len(th), 2),
    )
    return b.out


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, load, build, write_catalog)


if __name__ == "__main__":
    main()
