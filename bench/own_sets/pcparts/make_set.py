"""A first-contact question set over a catalog of another domain: "pcparts" (CPUs and GPUs).

Written and committed before it was run, without reading the question-parsing code, to measure the
system on a PC-parts shop it was never tuned for. The products are real rows of the Kaggle
"Computer Parts" dataset in ``shared/data/pcparts-kaggle-computerparts/`` (see its SOURCE.md):
Intel processors (``Intel_CPUs.csv``, Intel ARK records) and graphics cards / GPUs
(``All_GPUs.csv``, Game-Debate records), mixed into one catalog with two categories,
"Processors" and "Graphics Cards".

The catalog (one row per product, the row format of devmix's ``write_rows`` plus a USD currency):

* a deterministic sample (``random.Random(SEED)``) of 500 processors (rows with a processor
  number, exact duplicate rows dropped) and 500 graphics cards, in file order;
* names: a processor is "Intel <family> <processor number>", the family being the first of Xeon
  Phi / Xeon / Core / Pentium / Celeron / Atom / Itanium / Quark in its product collection
  ("Intel Core i7-7Y75", "Intel Xeon E3-1285V6"); a card is its ``Name`` as written; a name two
  sampled rows share gets its launch date, then its segment, appended in brackets (rows equal but
  for the price are one processor: the first is kept);
* price: the processor's "Recommended Customer Price" and the card's "Release Price", raw
  ("$393.00 ", "$612.00 - $616.00", "N/A"), USD;
* specs: every non-blank source cell as written (trailing spaces, "\\n01-Mar-2009 ", "\\n- "
  placeholders, "Q3'16", "64GB/sec" included), under ARK / Game-Debate style labels;
* prose-only facts: Hyper-Threading and ECC memory support (processors), SLI/CrossFire multi-GPU
  support and notebook (laptop) GPU (cards) are taken out of the spec table and stated only on
  the product page, in several phrasings, positive and negative; in about one page in five a fact
  is not stated at all (unknown).

    python3 bench/own_sets/pcparts/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/pcparts/make_set.py --check     # questions.json current
    python3 bench/own_sets/pcparts/make_set.py --show      # print every question with its gold

Conventions of the gold, all computed here from the source fields:

* "under / less than / below / more than" are strict; "at least / or more / or faster" inclusive.
* A missing or placeholder value never satisfies a condition ("\\n- " core speed, "N/A" price,
  "Unknown Release Date"); a prose fact a page does not state is neither had nor lacked.
* Units are converted exactly: GHz = 1000 MHz, GB = 1024 MB (card memory is written in MB:
  "8192 MB " is 8 GB), cache KB / 1024 = MB, processor max memory TB = 1024 GB (thresholds are
  chosen so no value falls between the 1000 and 1024 readings).
* A price range ("$612.00 - $616.00") satisfies "under X" only when both ends are under X; the
  price thresholds are checked to split no range, and superlatives over price are checked not to
  hinge on a range.
* Years: a processor's launch year is the two digits after the apostrophe of its launch quarter
  ("Q3'16" = 2016, "Q1 '15" = 2015); a card's release year is the year of its release date.
* "Processors / CPUs / chips" are the Processors category; "graphics cards / GPUs / video cards"
  the Graphics Cards category; "parts / components / products" the whole catalog. The brand of a
  card is its ``Manufacturer`` (Nvidia, AMD, ATI, Intel).
* Superlatives and two-product comparisons are asserted to have a unique winner; lists hold at
  most 40 products.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2].parent / "shared" / "data" / "pcparts-kaggle-computerparts"
QUESTIONS = HERE / "questions.json"
SEED = 20261205
N_CPU, N_GPU = 500, 500
DEBUG = False  # True: a gold outside its bounds is printed, not asserted (used while choosing thresholds)

sys.path.insert(0, str(HERE.parent))
from shared import (  # noqa: E402
    AGGREGATION,
    GROUP,
    INVERSE,
    MULTI,
    REASONING,
    BoundedBuilder,
    set_main,
)

L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
CPU, GPU = "Processors", "Graphics Cards"
FAMILIES = ["Xeon Phi", "Xeon", "Core", "Pentium", "Celeron", "Atom", "Itanium", "Quark"]

# Spec labels (source column -> "Section:Entry"); the prose-only columns are absent.
CPU_SPECS = {
    "Product_Collection": "Essentials:Product Collection",
    "Vertical_Segment": "Essentials:Vertical Segment",
    "Processor_Number": "Essentials:Processor Number",
    "Status": "Essentials:Status",
    "Launch_Date": "Essentials:Launch Date",
    "Lithography": "Essentials:Lithography",
    "nb_of_Cores": "Performance:# of Cores",
    "nb_of_Threads": "Performance:# of Threads",
    "Processor_Base_Frequency": "Performance:Processor Base Frequency",
    "Max_Turbo_Frequency": "Performance:Max Turbo Frequency",
    "Cache": "Performance:Cache",
    "Bus_Speed": "Performance:Bus Speed",
    "TDP": "Performance:TDP",
    "Embedded_Options_Available": "Supplemental Information:Embedded Options Available",
    "Conflict_Free": "Supplemental Information:Conflict Free",
    "Max_Memory_Size": "Memory Specifications:Max Memory Size (dependent on memory type)",
    "Memory_Types": "Memory Specifications:Memory Types",
    "Max_nb_of_Memory_Channels": "Memory Specifications:Max # of Memory Channels",
    "Max_Memory_Bandwidth": "Memory Specifications:Max Memory Bandwidth",
    "Graphics_Base_Frequency": "Processor Graphics:Graphics Base Frequency",
    "Graphics_Max_Dynamic_Frequency": "Processor Graphics:Graphics Max Dynamic Frequency",
    "Graphics_Video_Max_Memory": "Processor Graphics:Graphics Video Max Memory",
    "Graphics_Output": "Processor Graphics:Graphics Output",
    "Max_Resolution_HDMI": "Processor Graphics:Max Resolution (HDMI)",
    "Max_Resolution_DP": "Processor Graphics:Max Resolution (DP)",
    "Max_Resolution_eDP_Integrated_Flat_Panel": "Processor Graphics:Max Resolution (eDP - Integrated Flat Panel)",
    "DirectX_Support": "Processor Graphics:DirectX Support",
    "PCI_Express_Revision": "Expansion Options:PCI Express Revision",
    "PCI_Express_Configurations_": "Expansion Options:PCI Express Configurations",
    "Max_nb_of_PCI_Express_Lanes": "Expansion Options:Max # of PCI Express Lanes",
    "T": "Package Specifications:T junction",
    "Intel_Virtualization_Technology_VTx_": "Advanced Technologies:Intel Virtualization Technology (VT-x)",
    "Intel_64_": "Advanced Technologies:Intel 64",
    "Instruction_Set": "Advanced Technologies:Instruction Set",
    "Instruction_Set_Extensions": "Advanced Technologies:Instruction Set Extensions",
    "Idle_States": "Advanced Technologies:Idle States",
    "Thermal_Monitoring_Technologies": "Advanced Technologies:Thermal Monitoring Technologies",
    "Secure_Key": "Security & Reliability:Secure Key",
    "Execute_Disable_Bit": "Security & Reliability:Execute Disable Bit",
}
GPU_SPECS = {
    "Manufacturer": "General:Manufacturer",
    "Architecture": "General:Architecture",
    "Release_Date": "General:Release Date",
    "Process": "General:Process",
    "Core_Speed": "Core:Core Speed",
    "Boost_Clock": "Core:Boost Clock",
    "Shader": "Core:Shader",
    "ROPs": "Core:ROPs",
    "TMUs": "Core:TMUs",
    "Pixel_Rate": "Core:Pixel Rate",
    "Texture_Rate": "Core:Texture Rate",
    "Memory": "Memory:Memory",
    "Memory_Type": "Memory:Memory Type",
    "Memory_Bus": "Memory:Memory Bus",
    "Memory_Speed": "Memory:Memory Speed",
    "Memory_Bandwidth": "Memory:Memory Bandwidth",
    "L2_Cache": "Memory:L2 Cache",
    "Max_Power": "Power:Max Power",
    "PSU": "Power:Recommended PSU",
    "Power_Connector": "Power:Power Connector",
    "Dedicated": "Features:Dedicated",
    "Integrated": "Features:Integrated",
    "Direct_X": "Features:DirectX",
    "Open_GL": "Features:OpenGL",
    "Best_Resolution": "Display:Best Resolution",
    "Resolution_WxH": "Display:Max Resolution",
    "DVI_Connection": "Connectivity:DVI",
    "HDMI_Connection": "Connectivity:HDMI",
    "DisplayPort_Connection": "Connectivity:DisplayPort",
    "VGA_Connection": "Connectivity:VGA",
}

# Phrasings of the prose-only facts (questions use other words).
SAYS = {
    ("ht", True): [
        "Hyper-Threading is supported, so every core runs two threads.",
        "Intel Hyper-Threading Technology is enabled on this chip.",
        "Thanks to Hyper-Threading, each physical core shows up as two logical processors.",
        "It features Intel HT Technology.",
    ],
    ("ht", False): [
        "Hyper-Threading is not supported.",
        "There is no Hyper-Threading: one thread per core.",
        "This processor lacks Intel Hyper-Threading Technology.",
        "Each core runs a single thread; HT was left out.",
    ],
    ("ecc", True): [
        "It supports ECC memory for error correction.",
        "Error-correcting (ECC) RAM is supported.",
        "Pair it with ECC modules: error-correcting memory is supported.",
    ],
    ("ecc", False): [
        "ECC memory is not supported.",
        "It does not work with error-correcting (ECC) memory.",
        "No ECC support, so use regular non-ECC RAM.",
    ],
    ("multi", True, "Nvidia"): [
        "Two of these can be linked in SLI.",
        "It supports SLI for multi-GPU setups.",
        "SLI ready: pair it with a second card for more speed.",
    ],
    ("multi", True, "AMD"): [
        "CrossFire lets you pair it with a second card.",
        "It supports AMD CrossFire multi-GPU setups.",
        "Ready for CrossFire with a matching card.",
    ],
    ("multi", True, "Intel"): ["It can work in a multi-GPU configuration."],
    ("multi", False, "Nvidia"): [
        "SLI is not supported, so it runs alone.",
        "It cannot be paired with a second card: no SLI.",
        "There is no SLI connector or support.",
    ],
    ("multi", False, "AMD"): [
        "CrossFire is not supported.",
        "It cannot be paired with a second card: no CrossFire.",
        "No CrossFire support, so it runs alone.",
    ],
    ("multi", False, "Intel"): ["It does not support multi-GPU setups."],
    ("notebook", True): [
        "This is a mobile GPU, found inside laptops.",
        "A notebook graphics chip: you will find it in laptops, not as a desktop card.",
        "Designed for notebooks.",
        "It powers the graphics of gaming and business laptops.",
    ],
    ("notebook", False): [
        "A desktop part, not a laptop chip.",
        "This one is for desktop PCs rather than notebooks.",
        "It is not a notebook GPU.",
    ],
}


# ---- source values ------------------------------------------------------------------------


def num(text: str | None) -> float | None:
    m = re.search(r"-?\d[\d,]*(?:\.\d+)?|-?\.\d+", text or "")
    return float(m.group(0).replace(",", "")) if m else None


def ghz(text: str) -> float | None:
    """'1.30 GHz' -> 1.3, '800 MHz' -> 0.8."""
    m = re.fullmatch(r"\s*([\d.]+)\s*(GHz|MHz)\s*", text or "")
    if not m:
        return None
    return float(m.group(1)) / (1000 if m.group(2) == "MHz" else 1)


def mhz(text: str) -> float | None:
    m = re.fullmatch(r"\s*([\d.]+)\s*MHz\s*", text or "")
    return float(m.group(1)) if m else None


def unit_num(text: str, unit: str) -> float | None:
    m = re.fullmatch(r"\s*([\d.]+)\s*" + unit + r"\b.*", (text or "").strip(), re.S)
    return float(m.group(1)) if m else None


def price_range(text: str) -> tuple[float, float] | None:
    found = [float(x.replace(",", "")) for x in re.findall(r"\$([\d,]+(?:\.\d+)?)", text or "")]
    return (min(found), max(found)) if found else None


@dataclass
class Part:
    name: str
    category: str
    raw: dict
    price: str
    facts: dict = field(default_factory=dict)  # prose-only fact -> True / False / None (not stated)
    page: str = ""
    specs: dict = field(default_factory=dict)

    # -- common
    @property
    def is_cpu(self) -> bool:
        return self.category == CPU

    def prices(self) -> tuple[float, float] | None:
        return price_range(self.price)

    def usd(self) -> float | None:
        """A single price (a range has none)."""
        p = self.prices()
        return p[0] if p and p[0] == p[1] else None

    def nm(self) -> float | None:
        return unit_num(self.raw.get("Lithography" if self.is_cpu else "Process", ""), "nm")

    # -- processors
    @property
    def family(self) -> str:
        return next(f for f in FAMILIES if f in self.raw["Product_Collection"].replace("®", "").replace("™", ""))

    def segment(self) -> str:
        return self.raw["Vertical_Segment"].strip()

    def cores(self) -> int | None:
        return int(self.raw["nb_of_Cores"]) if self.raw.get("nb_of_Cores", "").strip() else None

    def threads(self) -> int | None:
        return int(self.raw["nb_of_Threads"]) if self.raw.get("nb_of_Threads", "").strip() else None

    def base_ghz(self) -> float | None:
        return ghz(self.raw.get("Processor_Base_Frequency", ""))

    def turbo_ghz(self) -> float | None:
        return ghz(self.raw.get("Max_Turbo_Frequency", ""))

    def cache_mb(self) -> float | None:
        m = re.match(r"\s*([\d.]+)\s*(MB|KB)", self.raw.get("Cache", ""))
        return None if not m else float(m.group(1)) / (1024 if m.group(2) == "KB" else 1)

    def tdp(self) -> float | None:
        return unit_num(self.raw.get("TDP", ""), "W")

    def max_mem_gb(self) -> float | None:
        m = re.fullmatch(r"\s*([\d.]+)\s*(GB|TB)\s*", self.raw.get("Max_Memory_Size", ""))
        return None if not m else float(m.group(1)) * (1024 if m.group(2) == "TB" else 1)

    def launch_year(self) -> int | None:
        m = re.search(r"'\s*(\d\d)\s*$", self.raw.get("Launch_Date", ""))
        return None if not m else (1900 if int(m.group(1)) > 50 else 2000) + int(m.group(1))

    def launch_quarter(self) -> int | None:
        m = re.match(r"\s*Q([1-4])", self.raw.get("Launch_Date", ""))
        return int(m.group(1)) if m else None

    # -- graphics cards
    @property
    def maker(self) -> str:
        return self.raw["Manufacturer"].strip()

    def mem_mb(self) -> float | None:
        return unit_num(self.raw.get("Memory", ""), "MB")

    def bus_bits(self) -> float | None:
        return unit_num(self.raw.get("Memory_Bus", ""), "Bit")

    def mem_type(self) -> str:
        return self.raw.get("Memory_Type", "").strip()

    def watts(self) -> float | None:
        return unit_num(self.raw.get("Max_Power", ""), "Watts")

    def boost_mhz(self) -> float | None:
        return mhz(self.raw.get("Boost_Clock", ""))

    def core_mhz(self) -> float | None:
        return mhz(self.raw.get("Core_Speed", ""))

    def released(self) -> dt.date | None:
        m = re.search(r"(\d\d)-(\w{3})-(\d{4})", self.raw.get("Release_Date", ""))
        return None if not m else dt.datetime.strptime(m.group(0), "%d-%b-%Y").date()

    def release_year(self) -> int | None:
        d = self.released()
        return d.year if d else None

    def dx(self) -> float | None:
        m = re.match(r"\s*DX\s*(\d+(?:\.\d)?)", self.raw.get("Direct_X", ""))
        return float(m.group(1)) if m else None

    def ports(self, col: str) -> int | None:
        v = self.raw.get(col, "").strip()
        return int(v) if v.isdigit() else None


def _read(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _sample(rows: list, n: int, rng: random.Random) -> list:
    keep = sorted(rng.sample(range(len(rows)), n))
    return [rows[i] for i in keep]


def _specs(raw: dict, labels: dict) -> dict:
    return {label: raw[col] for col, label in labels.items() if raw.get(col, "").strip()}


def _yes_no(text: str) -> bool | None:
    return {"Yes": True, "No": False}.get(text.strip())


def load() -> list[Part]:
    rng = random.Random(SEED)
    cpus, seen = [], set()
    for r in _read("Intel_CPUs.csv"):
        key = tuple(v for k, v in r.items() if k != "Recommended_Customer_Price")  # a row repeated, one priced
        if r["Processor_Number"].strip() and key not in seen:
            seen.add(key)
            cpus.append(r)
    gpus = _read("All_GPUs.csv")
    parts = []
    for r in _sample(cpus, N_CPU, rng):
        fam = next(f for f in FAMILIES if f in r["Product_Collection"].replace("®", "").replace("™", ""))
        parts.append(Part(f"Intel {fam} {r['Processor_Number'].strip()}", CPU, r, r["Recommended_Customer_Price"]))
    for r in _sample(gpus, N_GPU, rng):
        parts.append(Part(r["Name"].strip(), GPU, r, r["Release_Price"]))
    # unique names: launch/release date, then the segment
    for extra in (
        lambda p: (p.raw.get("Launch_Date") or p.raw.get("Release_Date") or "").strip(),
        lambda p: p.raw.get("Vertical_Segment") or p.raw.get("Architecture", "").strip(),
    ):
        count: dict[str, int] = {}
        for p in parts:
            count[p.name] = count.get(p.name, 0) + 1
        for p in parts:
            if count[p.name] > 1 and extra(p):
                p.name = f"{p.name} ({extra(p)})"
    names = [p.name for p in parts]
    assert len(set(names)) == len(names), [n for n in names if names.count(n) > 1]
    # prose-only facts and pages
    prose = random.Random(SEED + 1)
    for p in parts:
        if p.is_cpu:
            p.specs = _specs(p.raw, CPU_SPECS)
            facts = {
                "ht": _yes_no(p.raw["Intel_Hyper_Threading_Technology_"]),
                "ecc": _yes_no(p.raw["ECC_Memory_Supported"]),
            }
            lead = f"The {p.name} is an Intel processor from the {p.raw['Product_Collection'].strip()} line."
        else:
            p.specs = _specs(p.raw, GPU_SPECS)
            facts = {"multi": _yes_no(p.raw["SLI_Crossfire"]), "notebook": _yes_no(p.raw["Notebook_GPU"])}
            lead = f"The {p.name} is a graphics processor by {p.maker}."
        sentences = []
        for fact, value in facts.items():
            stated = value is not None and prose.random() < 0.8
            p.facts[fact] = value if stated else None
            if stated:
                key = (fact, value, {"ATI": "AMD"}.get(p.maker, p.maker)) if fact == "multi" else (fact, value)
                sentences.append(prose.choice(SAYS[key]))
        prose.shuffle(sentences)
        p.page = " ".join([lead, *sentences])
    return parts


# ---- questions ----------------------------------------------------------------------------


def _no_range_split(pool: list[Part], cut: float) -> None:
    for p in pool:
        pr = p.prices()
        assert not (pr and pr[0] < cut <= pr[1]), (p.name, p.price, cut)


def build_questions(parts: list[Part]) -> list[dict]:
    b = BoundedBuilder(parts, debug=DEBUG)
    cpus = [p for p in parts if p.is_cpu]
    gpus = [p for p in parts if not p.is_cpu]
    fam = lambda f: [p for p in cpus if p.family.split()[0] == f]  # noqa: E731  ("Xeon" takes in Xeon Phi)
    seg = lambda s: [p for p in cpus if p.segment() == s]  # noqa: E731
    brand = lambda m: [p for p in gpus if p.maker == m]  # noqa: E731
    names = lambda pool: [p.name for p in pool]  # noqa: E731
    is_ = lambda fact, v: lambda p: p.facts.get(fact) is v  # noqa: E731
    i5 = [p for p in cpus if re.search(r"\bi5-", p.name)]

    # ---- one condition, spec table
    b.add("Which Intel processors have 14 or more cores?", L, names=names(p for p in cpus if (p.cores() or 0) >= 14))
    b.add(
        "Which graphics cards come with 8 GB of video memory or more?",
        L,
        names=names(p for p in gpus if (p.mem_mb() or 0) >= 8 * 1024),
    )
    b.add(
        "Which CPUs have a base clock of at least 3,600 MHz?",
        L,
        names=names(p for p in cpus if (p.base_ghz() or 0) >= 3.6),
    )
    b.add(
        "Which GPUs have a memory bus wider than 384 bits?",
        L,
        names=names(p for p in gpus if (p.bus_bits() or 0) > 384),
    )
    b.add("Which video cards draw more than 300 W?", L, names=names(p for p in gpus if (p.watts() or 0) > 300))
    b.add("Which parts are built on a 130 nm process?", L, names=names(p for p in parts if p.nm() == 130))
    b.add(
        "Which processors have a TDP below 3 watts?",
        L,
        names=names(p for p in cpus if p.tdp() is not None and p.tdp() < 3),
    )
    b.add("Which graphics cards use GDDR5X memory?", L, names=names(p for p in gpus if p.mem_type() == "GDDR5X"))
    b.add("Which GPUs came out in 2017?", L, names=names(p for p in gpus if p.release_year() == 2017))
    b.add(
        "Which Intel processors were launched in Q3 2016?",
        L,
        names=names(p for p in cpus if p.launch_year() == 2016 and p.launch_quarter() == 3),
    )
    b.add(
        "Which graphics cards have four DisplayPort outputs?",
        L,
        names=names(p for p in gpus if p.ports("DisplayPort_Connection") == 4),
    )
    b.add(
        "Which processors have more than 40 MB of cache?", L, names=names(p for p in cpus if (p.cache_mb() or 0) > 40)
    )
    b.add(
        "Which GPUs have two or more HDMI ports?",
        L,
        names=names(p for p in gpus if (p.ports("HDMI_Connection") or 0) >= 2),
    )
    b.add("Which graphics cards from Intel are listed?", L, names=names(brand("Intel")))

    # ---- one condition, prose only
    b.add(
        "Which Pentium processors support error-correcting memory?",
        L,
        "tkg",
        names=names(filter(is_("ecc", True), fam("Pentium"))),
    )
    b.add("Which Core i5 chips have Hyper-Threading?", L, "tkg", names=names(filter(is_("ht", True), i5)))
    b.add("Which Atom processors have Hyper-Threading?", L, "tkg", names=names(filter(is_("ht", True), fam("Atom"))))
    b.add("Which Intel GPUs are laptop chips?", L, "tkg", names=names(filter(is_("notebook", True), brand("Intel"))))
    b.add(
        "Which Celeron processors don't support ECC RAM?",
        L,
        "tkg",
        names=names(filter(is_("ecc", False), fam("Celeron"))),
    )

    # ---- several conditions
    b.add(
        "Which mobile processors have 4 cores and a TDP of 15 W or less?",
        M,
        names=names(p for p in seg("Mobile") if p.cores() == 4 and p.tdp() is not None and p.tdp() <= 15),
    )
    pool = [p for p in brand("Nvidia") if p.usd() is not None]
    b.add(
        "Which Nvidia graphics cards have at least 4 GB of memory and launched at under $300?",
        M,
        names=names(p for p in pool if (p.mem_mb() or 0) >= 4096 and p.usd() < 300),
    )
    _no_range_split(seg("Server"), 3000)
    b.add(
        "Which server CPUs with 16 cores or more cost less than $3,000?",
        M,
        names=names(p for p in seg("Server") if (p.cores() or 0) >= 16 and p.prices() and p.prices()[1] < 3000),
    )
    b.add(
        "Which AMD GPUs with GDDR5 memory draw under 75 watts?",
        M,
        names=names(p for p in brand("AMD") if p.mem_type() == "GDDR5" and p.watts() is not None and p.watts() < 75),
    )
    _no_range_split(fam("Celeron"), 50)
    b.add(
        "Which Celeron processors cost under $50?",
        M,
        names=names(p for p in fam("Celeron") if p.prices() and p.prices()[1] < 50),
    )
    b.add(
        "Which Nvidia graphics cards were released before 2005?",
        M,
        names=names(p for p in brand("Nvidia") if p.release_year() is not None and p.release_year() < 2005),
    )
    b.add(
        "Which desktop processors with Hyper-Threading have a base frequency of 3.5 GHz or higher?",
        M,
        "tkg",
        names=names(p for p in seg("Desktop") if p.facts["ht"] is True and (p.base_ghz() or 0) >= 3.5),
    )
    b.add(
        "Which quad-core desktop CPUs launched in 2015 or later don't support Hyper-Threading?",
        M,
        "tkg",
        names=names(
            p for p in seg("Desktop") if p.cores() == 4 and p.facts["ht"] is False and (p.launch_year() or 0) >= 2015
        ),
    )
    b.add(
        "Which Nvidia desktop cards with 2 GB of memory can run in SLI?",
        M,
        "tkg",
        names=names(
            p
            for p in brand("Nvidia")
            if p.facts["notebook"] is False and p.facts["multi"] is True and p.mem_mb() == 2048
        ),
    )
    b.add(
        "Which Radeon cards with 4GB or more of memory support CrossFire?",
        M,
        "tkg",
        names=names(p for p in gpus if "Radeon" in p.name and p.facts["multi"] is True and (p.mem_mb() or 0) >= 4096),
    )
    b.add(
        "Which Xeon processors launched in 2017 support ECC memory?",
        M,
        "tkg",
        names=names(p for p in fam("Xeon") if p.facts["ecc"] is True and p.launch_year() == 2017),
    )
    b.add(
        "Which notebook GPUs draw more than 150 W?",
        M,
        "tkg",
        names=names(p for p in gpus if p.facts["notebook"] is True and (p.watts() or 0) > 150),
        min_len=0,
    )
    b.add(
        "Which Celeron processors have more than four cores?",
        M,
        names=names(p for p in fam("Celeron") if (p.cores() or 0) > 4),
        min_len=0,
    )

    # ---- two named products
    rng = random.Random(SEED + 2)

    def pick(pool, key):
        pool = [p for p in pool if key(p) is not None]
        for _ in range(500):
            x, y = rng.sample(pool, 2)
            if key(x) != key(y):
                return x, y
        raise AssertionError("no pair")

    x, y = pick([p for p in cpus if (p.cores() or 0) >= 4], Part.cores)
    b.add(f"Which has more cores, the {x.name} or the {y.name}?", G, value=max((x, y), key=Part.cores).name)
    x, y = pick(seg("Desktop"), Part.base_ghz)
    b.add(f"{x.name} vs {y.name}: which one has the higher base clock?", G, value=max((x, y), key=Part.base_ghz).name)
    x, y = pick(brand("Nvidia") + brand("AMD"), Part.mem_mb)
    b.add(f"Which card has more VRAM: {x.name} or {y.name}?", G, value=max((x, y), key=Part.mem_mb).name)
    x, y = pick(brand("AMD"), Part.watts)
    b.add(f"Which uses less power, the {x.name} or the {y.name}?", G, value=min((x, y), key=Part.watts).name)
    x, y = pick(brand("Nvidia"), Part.released)
    b.add(f"Which came out first, the {x.name} or the {y.name}?", G, value=min((x, y), key=Part.released).name)
    x, y = pick(fam("Core"), Part.usd)
    b.add(f"Which is cheaper: {x.name} or {y.name}?", G, value=min((x, y), key=Part.usd).name)
    x, y = pick(gpus, Part.bus_bits)
    b.add(
        f"Between the {x.name} and the {y.name}, which has the wider memory bus?",
        G,
        value=max((x, y), key=Part.bus_bits).name,
    )
    x, y = pick(seg("Mobile"), Part.tdp)
    b.add(f"Which runs cooler, with the lower TDP: {x.name} or {y.name}?", G, value=min((x, y), key=Part.tdp).name)
    yes = [p for p in fam("Core") if p.facts["ht"] is True]
    no = [p for p in fam("Core") if p.facts["ht"] is False]
    x, y = rng.choice(yes), rng.choice(no)
    b.add(f"Which of these supports Hyper-Threading, the {y.name} or the {x.name}?", G, "tkg", value=x.name)
    yes = [p for p in brand("Nvidia") if p.facts["notebook"] is True]
    no = [p for p in brand("Nvidia") if p.facts["notebook"] is False]
    x, y = rng.choice(yes), rng.choice(no)
    b.add(f"Which one is a laptop GPU: {x.name} or {y.name}?", G, "tkg", value=x.name)

    # ---- counts, extremes
    b.add("How many AMD graphics cards are in the catalog?", A, value=len(brand("AMD")))
    b.add("How many six-core processors are there?", A, value=len([p for p in cpus if p.cores() == 6]))
    top = b.top_value(brand("Nvidia"), Part.boost_mhz)
    b.add("What is the highest boost clock of any Nvidia card, in GHz?", A, value=top / 1000)
    b.add(
        "What is the lowest TDP among desktop processors, in watts?",
        A,
        value=b.top_value(seg("Desktop"), Part.tdp, low=True),
    )
    b.add_best("Which processor has the most threads?", A, "sparql", b.best(cpus, Part.threads)[0])
    priced = [p for p in gpus if p.usd() is not None]
    assert all(p.prices() is None or p.usd() is not None for p in gpus)
    b.add("Which is the most expensive graphics card?", A, value=b.best_one(priced, Part.usd).name)
    b.add(
        "How many GPUs were released before 2008?",
        A,
        value=len([p for p in gpus if p.release_year() is not None and p.release_year() < 2008]),
    )
    b.add(
        "What is the largest amount of video memory on an AMD card, in GB?",
        A,
        value=b.top_value(brand("AMD"), Part.mem_mb) / 1024,
    )
    b.add("How many processors support ECC memory?", A, "tkg", value=len([p for p in cpus if p.facts["ecc"] is True]))
    b.add(
        "How many Nvidia GPUs are made for notebooks?",
        A,
        "tkg",
        value=len([p for p in brand("Nvidia") if p.facts["notebook"] is True]),
    )
    server = [p for p in seg("Server") if p.prices()]
    win = b.best_one(server, lambda p: p.prices()[0], low=True)
    assert win.usd() is not None and all(p.prices()[0] > win.usd() for p in server if p is not win)
    b.add("What is the cheapest server processor?", A, value=win.name)
    b.add("How many parts are made on a 65 nm process?", A, value=len([p for p in parts if p.nm() == 65]))
    b.add(
        "How many Xeon processors don't support Hyper-Threading?",
        A,
        "tkg",
        value=len([p for p in fam("Xeon") if p.facts["ht"] is False]),
    )
    b.add(
        "What is the maximum power draw of the most power-hungry Intel GPU, in watts?",
        A,
        value=b.top_value(brand("Intel"), Part.watts),
    )
    mob = [p for p in seg("Mobile") if p.turbo_ghz() is not None]
    b.add(
        "Which mobile CPU has the highest turbo frequency?",
        A,
        value=b.best_one(mob, Part.turbo_ghz).name,
    )

    # ---- single facts, conversions, dates
    rng = random.Random(SEED + 3)
    p = rng.choice([p for p in fam("Core") if p.threads()])
    b.add(f"How many threads does the {p.name} have?", R, value=p.threads())
    p = rng.choice([p for p in seg("Desktop") if p.base_ghz()])
    b.add(f"What is the base clock of the {p.name} in MHz?", R, value=round(p.base_ghz() * 1000))
    p = rng.choice([p for p in brand("Nvidia") if (p.mem_mb() or 0) >= 1024])
    b.add(f"How much memory does the {p.name} have, in gigabytes?", R, value=p.mem_mb() / 1024)
    p = rng.choice([p for p in brand("AMD") if p.released()])
    b.add(f"In what year was the {p.name} released?", R, value=p.release_year())
    p = rng.choice([p for p in fam("Xeon") if p.facts["ht"] is not None])
    b.add(f"Does the {p.name} support Hyper-Threading?", R, "tkg", value="yes" if p.facts["ht"] else "no")
    p = rng.choice([p for p in fam("Core") if p.usd()])
    b.add(f"What does the {p.name} cost, in dollars?", R, value=p.usd())
    p = rng.choice([p for p in gpus if p.ports("HDMI_Connection")])
    b.add(f"How many HDMI ports does the {p.name} have?", R, value=p.ports("HDMI_Connection"))
    p = rng.choice([p for p in gpus if p.facts["notebook"] is not None])
    b.add(f"Is the {p.name} a laptop GPU?", R, "tkg", value="yes" if p.facts["notebook"] else "no")
    b.add(
        "Which processors can address at least 1 TB of RAM?",
        R,
        names=names(p for p in cpus if (p.max_mem_gb() or 0) >= 1024),
    )
    b.add(
        "Which Core i7 processors were launched before 2010?",
        R,
        names=names(p for p in cpus if re.search(r"\bi7-", p.name) and p.launch_year() and p.launch_year() < 2010),
    )
    b.add(
        "Which AMD graphics cards support DirectX 12.1?",
        R,
        names=names(p for p in brand("AMD") if p.dx() == 12.1),
        min_len=0,
    )
    b.add(
        "Which Nvidia cards from before 2010 support DirectX 10 or newer?",
        R,
        names=names(p for p in brand("Nvidia") if (p.dx() or 0) >= 10 and (p.release_year() or 9999) < 2010),
    )
    return b.out


def write_catalog(parts: list[Part], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "catalog.jsonl", "w", encoding="utf-8") as f:
        for p in parts:
            row = {"name": p.name, "category": p.category, "price": p.price, "specs": p.specs, "page": p.page}
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    (out / "mapping.yaml").write_text(
        "# pcparts: one row per processor or graphics card; specs come as an object (raw strings),\n"
        "# the prose-only facts as the page text; prices are US dollars\n"
        "name: name\ncategories: category\nprice: {column: price, currency: USD}\ngroup_by: name\n"
        "specs_from: specs\ntext: [page]\nunmapped: drop\n",
        encoding="utf-8",
    )


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, load, build_questions, write_catalog)


if __name__ == "__main__":
    main()
