"""A held-out question set over the "pcparts" catalogue (Intel processors and graphics cards), in a
hardware reviewer's voice: "pcparts_y".

Written 2026-12-08, blind: without reading the QA system's code, its tests or docs, or any other
set's questions; only the base set's docstring, ``load()``, ``write_catalog()`` and data classes
were read, to learn which fields exist and which facts are stated only in page prose. The
catalogue is the base set's, byte for byte (``shared.base_set("pcparts")`` gives ``load`` and
``write_catalog``).

STYLE: a hardware reviewer writing comparison and reasoning questions in long sentences; units
mixed on purpose (MHz in one question, GHz in the next; card memory in MB or GB; power as "W",
"watts" or "TDP"); ranges written "between X and Y"; "at most" / "no more than"; comparisons of
two named products ("which has more cores, A or B"); no ratio ("per") questions.

    python3 bench/own_sets/pcparts_y/make_set.py             # write questions.json
    python3 bench/own_sets/pcparts_y/make_set.py --check     # questions.json current
    python3 bench/own_sets/pcparts_y/make_set.py --show      # print every question with its gold
    python3 bench/own_sets/pcparts_y/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml

Conventions of the gold, all computed here from the source fields:

* "under / below / less than / more than / above / over / faster than / newer than" are strict;
  "at least / at most / no more than / or more / up to" are inclusive; "between X and Y" is
  inclusive at both ends (X <= v <= Y).
* A missing or placeholder value never satisfies a condition (no TDP, "\\n- " core speed, "N/A"
  price, no release date); a prose-only fact (Hyper-Threading, ECC, SLI/CrossFire, notebook GPU)
  that a page does not state is neither had nor lacked: "without / lacking / not" questions count
  only pages that state the negative. Such questions carry ``gt_retrieval_method`` "tkg".
* Units are exact: 1 GHz = 1000 MHz; card memory is written in MB and 1 GB = 1024 MB (so
  "8 GB" is "8192 MB"; the one "32000 MB" card is 31.25 GB); power is the processor's TDP and the
  card's "Max Power", both in watts ("W", "watts", "TDP" all mean this number).
* Prices are USD. A price range ("$612.00 - $616.00") satisfies a price condition only when both
  ends do; every price threshold here is asserted to split no range. Averages and superlatives
  over price use single prices only (a range or "N/A" is left out).
* Processors / CPUs / chips = the Processors category; graphics cards / GPUs / video cards = the
  Graphics Cards category. A processor's family is the base set's (Core, Xeon, Celeron, ...); its
  segment the ``Vertical_Segment`` (Desktop, Mobile, Server, Embedded). "Xeon" never includes
  "Xeon Phi" (the questions say so where it matters). A card's brand is its
  ``Manufacturer`` exactly: "AMD" does not include the 13 "ATI" cards.
* Years: a processor's launch year from its launch quarter ("Q3'16" = 2016); a card's release
  year from its release date.
* Averages are plain means, rounded to 2 decimals (the question says so); "how many more" is a
  difference of two counts. Superlatives and two-product comparisons are asserted to have a unique
  winner; group "which is higher" questions are asserted not to tie. Lists hold 1..40 names.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUESTIONS = HERE / "questions.json"
DEBUG = False

sys.path.insert(0, str(HERE.parent))
from shared import (  # noqa: E402
    AGGREGATION,
    GROUP,
    INVERSE,
    MULTI,
    REASONING,
    BoundedBuilder,
    base_set,
    set_main,
)

BASE = base_set("pcparts")
L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION


def _mean(vals):
    vals = [v for v in vals if v is not None]
    return sum(vals) / len(vals)


def build_questions(parts) -> list[dict]:
    b = BoundedBuilder(parts, debug=DEBUG)
    cpus = [p for p in parts if p.is_cpu]
    gpus = [p for p in parts if not p.is_cpu]

    def names(pool):
        return [p.name for p in pool]

    def fam(f):
        return [p for p in cpus if p.family == f]

    def seg(s):
        return [p for p in cpus if p.segment() == s]

    def brand(m):
        return [p for p in gpus if p.maker == m]

    def gb(p):
        v = p.mem_mb()
        return None if v is None else v / 1024

    def no_split(pool, cut):
        for p in pool:
            pr = p.prices()
            assert not (pr and pr[0] < cut < pr[1]), (p.name, p.price, cut)

    def price_ok(p, test):
        pr = p.prices()
        return bool(pr) and test(pr[0]) and test(pr[1])

    def pair(a, c, key, *, low=False):
        va, vc = key(b.named(a)), key(b.named(c))
        assert va is not None and vc is not None and va != vc, (a, c, va, vc)
        return (a if va < vc else c) if low else (a if va > vc else c)

    def higher(ga, gc, key, la, lc, *, low=False):
        ma, mc = _mean(key(p) for p in ga), _mean(key(p) for p in gc)
        assert ma != mc
        return (la if ma < mc else lc) if low else (la if ma > mc else lc)

    def yn(x):
        return "yes" if x else "no"

    # ---- INVERSE: which products have one property -------------------------------------------
    b.add(
        "For a retrospective on Intel's many-core accelerators, which Xeon Phi processors does the catalogue carry?",
        L,
        names=names(fam("Xeon Phi")),
    )
    b.add(
        "Since some listings still carry the old red brand, which graphics cards in the catalogue name ATI, rather than AMD, as their manufacturer?",
        L,
        names=names(brand("ATI")),
    )
    b.add(
        "I'm putting together a piece on exotic memory, so which video cards use GDDR5X memory?",
        L,
        names=names(p for p in gpus if p.mem_type() == "GDDR5X"),
    )
    b.add(
        "Which Intel Atom chips are described as lacking Hyper-Threading, i.e. running only one thread on each core?",
        L,
        "tkg",
        names=names(p for p in fam("Atom") if p.facts["ht"] is False),
    )
    b.add(
        "Which of the graphics processors made by Intel are stated to be notebook GPUs that you would find inside a laptop?",
        L,
        "tkg",
        names=names(p for p in brand("Intel") if p.facts["notebook"] is True),
    )
    b.add(
        "For a look at the Itanium line that Intel eventually abandoned, which Itanium processors are listed?",
        L,
        names=names(fam("Itanium")),
    )
    b.add(
        "Which graphics cards come with 16 GB of video memory on board?",
        L,
        names=names(p for p in gpus if p.mem_mb() == 16 * 1024),
    )
    b.add(
        "Which processors are rated at a TDP of exactly 170 watts, the hottest bracket I'm testing this month?",
        L,
        names=names(p for p in cpus if p.tdp() == 170),
    )
    b.add(
        "Which Celeron processors were launched in 2017?",
        L,
        names=names(p for p in fam("Celeron") if p.launch_year() == 2017),
    )
    b.add(
        "Which ATI-branded cards are described as able to run in a CrossFire pair?",
        L,
        "tkg",
        names=names(p for p in brand("ATI") if p.facts["multi"] is True),
    )

    # ---- MULTI: several conditions -----------------------------------------------------------
    b.add(
        "Which desktop Core processors have at least 4 cores while keeping their TDP at no more than 45 W, the sweet spot for a quiet small-form-factor build?",
        M,
        names=names(
            p
            for p in fam("Core")
            if p.segment() == "Desktop" and (p.cores() or 0) >= 4 and p.tdp() is not None and p.tdp() <= 45
        ),
    )
    b.add(
        "Which server processors with more than 12 cores are stated to support ECC memory, since error correction matters for my database box?",
        M,
        "tkg",
        names=names(p for p in seg("Server") if (p.cores() or 0) > 12 and p.facts["ecc"] is True),
    )
    b.add(
        "Which Nvidia cards have between 2 GB and 4 GB of memory (both ends included) and a maximum power draw under 75 watts, so they can run without an extra power connector?",
        M,
        names=names(
            p
            for p in brand("Nvidia")
            if gb(p) is not None and 2 <= gb(p) <= 4 and p.watts() is not None and p.watts() < 75
        ),
    )
    b.add(
        "Which mobile processors run at a base clock of at least 2.5 GHz and have 4 or more cores?",
        M,
        names=names(p for p in seg("Mobile") if (p.base_ghz() or 0) >= 2.5 and (p.cores() or 0) >= 4),
    )
    b.add(
        "Which graphics cards boost above 1800 MHz and carry 8 GB of memory?",
        M,
        names=names(p for p in gpus if (p.boost_mhz() or 0) > 1800 and p.mem_mb() == 8192),
    )
    b.add(
        "Which Nvidia desktop cards released after 2014 are described as unable to run in SLI, so they have to work alone?",
        M,
        "tkg",
        names=names(
            p
            for p in brand("Nvidia")
            if p.facts["notebook"] is False and p.facts["multi"] is False and (p.release_year() or 0) > 2014
        ),
    )
    no_split(cpus, 250), no_split(cpus, 350)
    b.add(
        "Which processors with exactly 4 cores carry a recommended price between $250 and $350 inclusive?",
        M,
        names=names(p for p in cpus if p.cores() == 4 and price_ok(p, lambda x: 250 <= x <= 350)),
    )
    b.add(
        "Which graphics cards have a 256-bit memory bus yet a maximum power rating of at most 120 watts?",
        M,
        names=names(p for p in gpus if p.bus_bits() == 256 and p.watts() is not None and p.watts() <= 120),
    )
    b.add(
        "Which Xeon processors, not counting Xeon Phi, launched in 2016 or later have a maximum turbo frequency of at least 3,500 MHz?",
        M,
        names=names(p for p in fam("Xeon") if (p.launch_year() or 0) >= 2016 and (p.turbo_ghz() or 0) >= 3.5),
    )
    b.add(
        "Which Pentium processors have a TDP below 10 W and no Hyper-Threading according to their product pages?",
        M,
        "tkg",
        names=names(p for p in fam("Pentium") if p.tdp() is not None and p.tdp() < 10 and p.facts["ht"] is False),
    )
    b.add(
        "Which AMD cards (not counting ATI) released in 2013 have more than 2048 MB of memory?",
        M,
        names=names(p for p in brand("AMD") if p.release_year() == 2013 and (p.mem_mb() or 0) > 2048),
    )

    # ---- GROUP: one group against another ----------------------------------------------------
    b.add(
        "Counting every chip in each family, does the catalogue hold more Celeron or more Pentium processors?",
        G,
        value=("Celeron" if len(fam("Celeron")) > len(fam("Pentium")) else "Pentium"),
    )
    assert len(fam("Celeron")) != len(fam("Pentium"))
    b.add(
        "Is the average TDP of the server processors higher than the average TDP of the desktop processors?",
        G,
        value=yn(_mean(p.tdp() for p in seg("Server")) > _mean(p.tdp() for p in seg("Desktop"))),
    )
    b.add(
        "Looking at maximum power draw in watts, which manufacturer's cards are thirstier on average, Nvidia's or AMD's?",
        G,
        value=higher(brand("Nvidia"), brand("AMD"), lambda p: p.watts(), "Nvidia", "AMD"),
    )
    b.add(
        "Which segment has the lower average base clock, the mobile processors or the embedded ones?",
        G,
        value=higher(seg("Mobile"), seg("Embedded"), lambda p: p.base_ghz(), "Mobile", "Embedded", low=True),
    )
    nb_n = len([p for p in brand("Nvidia") if p.facts["notebook"] is True])
    nb_a = len([p for p in brand("AMD") if p.facts["notebook"] is True])
    assert nb_n != nb_a
    b.add(
        "Which brand has more cards described as notebook (laptop) GPUs in this catalogue, Nvidia or AMD?",
        G,
        "tkg",
        value="Nvidia" if nb_n > nb_a else "AMD",
    )
    b.add(
        "How many more Core processors than Xeon processors (Xeon Phi not counted as Xeon) does the catalogue list?",
        G,
        value=len(fam("Core")) - len(fam("Xeon")),
    )
    b.add(
        "By how many cores does the average Xeon, leaving the Xeon Phi accelerators out, exceed the average Core processor? Give the difference rounded to 2 decimals.",
        G,
        value=round(_mean(p.cores() for p in fam("Xeon")) - _mean(p.cores() for p in fam("Core")), 2),
    )
    b.add(
        "On average, do the GDDR5 cards or the DDR3 cards carry more video memory?",
        G,
        value=higher(
            [p for p in gpus if p.mem_type() == "GDDR5"],
            [p for p in gpus if p.mem_type() == "DDR3"],
            lambda p: p.mem_mb(),
            "GDDR5",
            "DDR3",
        ),
    )
    b.add(
        "Counting only cards with a single list price, is the average launch price of Nvidia cards higher than that of AMD cards?",
        G,
        value=yn(_mean(p.usd() for p in brand("Nvidia")) > _mean(p.usd() for p in brand("AMD"))),
    )
    ht_core = len([p for p in fam("Core") if p.facts["ht"] is True])
    ht_xeon = len([p for p in fam("Xeon") if p.facts["ht"] is True])
    assert ht_core != ht_xeon
    b.add(
        "Are there more Core or more Xeon processors (Xeon Phi excluded) whose pages say they support Hyper-Threading?",
        G,
        "tkg",
        value="Core" if ht_core > ht_xeon else "Xeon",
    )

    # ---- REASONING: two named products, yes/no, derived conditions -----------------------------
    b.add(
        "Which has more cores, the Intel Core i7-6900K or the Intel Core i7-6850K?",
        R,
        value=pair("Intel Core i7-6900K", "Intel Core i7-6850K", lambda p: p.cores()),
    )
    b.add(
        "Between the GeForce GTX 1070 Gigabyte Xtreme Gaming and the GeForce GTX 1070 Zotac AMP!, which one draws fewer watts at maximum load?",
        R,
        value=pair(
            "GeForce GTX 1070 Gigabyte Xtreme Gaming", "GeForce GTX 1070 Zotac AMP!", lambda p: p.watts(), low=True
        ),
    )
    b.add(
        "Which boosts higher, the Radeon RX 580 HIS IceQ X2 OC 8GB or the GeForce GTX 1060 Palit Super Jetstream 6GB?",
        R,
        value=pair(
            "Radeon RX 580 HIS IceQ X2 OC 8GB", "GeForce GTX 1060 Palit Super Jetstream 6GB", lambda p: p.boost_mhz()
        ),
    )
    i5 = b.named("Intel Core i5-7640X")
    b.add(
        "Does the Intel Core i5-7640X have a base frequency above 3900 MHz?",
        R,
        value=yn(i5.base_ghz() * 1000 > 3900),
    )
    b.add(
        "Does the Intel Core i7-7820X have more than 8 MB of cache?",
        R,
        value=yn(b.named("Intel Core i7-7820X").cache_mb() > 8),
    )
    b.add(
        "Which has the larger memory pool, the GeForce GTX 1080 Ti MSI Armor 11GB Edition or the GeForce GTX Titan Z?",
        R,
        value=pair("GeForce GTX 1080 Ti MSI Armor 11GB Edition", "GeForce GTX Titan Z", lambda p: p.mem_mb()),
    )
    b.add(
        "Is there any Quark processor in the catalogue with a TDP above 2 W?",
        R,
        value=yn(any((p.tdp() or 0) > 2 for p in fam("Quark"))),
    )
    no_split(cpus, 500)
    b.add(
        "If my build needs a processor that is stated to support ECC memory, has at least 8 threads, and costs no more than $500, which processors qualify?",
        R,
        "tkg",
        names=names(
            p for p in cpus if p.facts["ecc"] is True and (p.threads() or 0) >= 8 and price_ok(p, lambda x: x <= 500)
        ),
    )
    b.add(
        "Of the processors whose pages confirm Hyper-Threading and that launched before 2012, which one has the most threads?",
        R,
        "tkg",
        value=b.best_one(
            [p for p in cpus if p.facts["ht"] is True and (p.launch_year() or 9999) < 2012], lambda p: p.threads()
        ).name,
    )
    b.add(
        "Which Nvidia cards released before 2010 already support DirectX 10 or newer but are stated to be desktop rather than notebook parts?",
        R,
        "tkg",
        names=names(
            p
            for p in brand("Nvidia")
            if (p.release_year() or 9999) < 2010 and (p.dx() or 0) >= 10 and p.facts["notebook"] is False
        ),
    )
    b.add(
        "Does the Radeon RX 480 4GB have a lower rated power draw than the Radeon RX 480 Gigabyte Windforce 4GB?",
        R,
        value=yn(b.named("Radeon RX 480 4GB").watts() < b.named("Radeon RX 480 Gigabyte Windforce 4GB").watts()),
    )

    # ---- AGGREGATION: counts, averages, superlatives, values -----------------------------------
    b.add(
        "How many Celeron processors have a TDP of at most 15 W?",
        A,
        value=len([p for p in fam("Celeron") if p.tdp() is not None and p.tdp() <= 15]),
    )
    b.add(
        "What is the average TDP, in watts and rounded to 2 decimals, of the desktop Core processors?",
        A,
        value=round(_mean(p.tdp() for p in fam("Core") if p.segment() == "Desktop"), 2),
    )
    top = b.best_one(brand("Nvidia"), lambda p: p.boost_mhz())
    b.add(
        "What is the highest boost clock among Nvidia's cards, expressed in GHz?",
        A,
        value=top.boost_mhz() / 1000,
    )
    b.add(
        "Which is the cheapest processor with at least 8 cores, counting only chips with a single list price?",
        A,
        value=b.best_one([p for p in cpus if (p.cores() or 0) >= 8], lambda p: p.usd(), low=True).name,
    )
    b.add(
        "How many graphics cards ship with exactly 4 GB of memory?",
        A,
        value=len([p for p in gpus if p.mem_mb() == 4096]),
    )
    b.add(
        "How many processors with exactly 4 cores are stated not to support Hyper-Threading?",
        A,
        "tkg",
        value=len([p for p in cpus if p.cores() == 4 and p.facts["ht"] is False]),
    )
    b.add(
        "What is the average maximum power draw, in watts rounded to 2 decimals, of the cards with GDDR5 memory?",
        A,
        value=round(_mean(p.watts() for p in gpus if p.mem_type() == "GDDR5"), 2),
    )
    b.add(
        "Which processor has the largest cache of all?",
        A,
        value=b.best_one(cpus, lambda p: p.cache_mb()).name,
    )
    b.add(
        "Of all the Nvidia cards, which one has the highest maximum power rating in watts?",
        A,
        value=b.best_one(brand("Nvidia"), lambda p: p.watts()).name,
    )
    b.add(
        "How many graphics cards released between 2010 and 2012, inclusive, are described as laptop GPUs?",
        A,
        "tkg",
        value=len(
            [
                p
                for p in gpus
                if p.release_year() is not None and 2010 <= p.release_year() <= 2012 and p.facts["notebook"] is True
            ]
        ),
    )
    b.add(
        "What is the lowest TDP, in watts, of any Xeon processor (Xeon Phi excluded)?",
        A,
        value=b.top_value(fam("Xeon"), lambda p: p.tdp(), low=True),
    )
    return b.out


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, BASE.load, build_questions, BASE.write_catalog)


if __name__ == "__main__":
    main()
