"""The model-free extractor finds the names a shopper asks about and leaves out filler."""

from __future__ import annotations

import pytest

from dualgraph.tkg.chunking import chunk_document
from dualgraph.tkg.extract_heuristic import HeuristicExtractor
from dualgraph.tkg.merge import entity_key
from dualgraph.tkg.model import Chunk

# Shop-page copy written for these tests, in the style of feature blocks and spec tables.
PHONE_PAGE = """# Feature from the "Galaxy S24 Ultra" page
Meet Galaxy S24 Ultra, the ultimate form of Galaxy Ultra with a titanium exterior and a flat display.
Gorilla Glass Victus 2 protects the screen from drops and scratches.
The built-in S Pen lets you jot notes, sketch and control the camera from across the room.
Powered by the Snapdragon 8 Gen 3 for Galaxy, it handles demanding games at 120Hz without breaking a sweat.
Click here to learn more.
[CHUNK_BREAK]
# Feature from the "Galaxy S24 Ultra" page
Rated IP68 for dust and water resistance, it keeps going in the rain. 5G connectivity means faster downloads, \
and stereo speakers tuned by AKG fill the room with sound.
[CHUNK_BREAK]
# Specifications of "Galaxy S24 Ultra 256GB" (from the "Galaxy S24 Ultra" page)
## Display
Size (Main Display): 6.8" (172.5mm full rectangle)
Refresh Rate: 120 Hz
## Network
Number of SIM: Dual-SIM
Connectivity: 5G, LTE, Wi-Fi 7, Bluetooth v5.3, NFC
## Battery
Fast Charging: Yes
"""

RADIO_PAGE = """# Feature from the "Retro Radio R2" page
Tune in to your favourite stations with the built-in FM radio and DAB+ receiver. Digital Crystal Clear technology \
keeps voices sharp even at high volume, and the stereo speakers deliver rich, room-filling sound.
Every Retro Radio R2 ships in plastic-free packaging and comes with a 10-year warranty. Bluetooth 5.3, USB-C \
charging and much more, and more. Find out more about our recycling scheme.
"""

TV_PAGE = """# Feature from the "Neo QLED QN90D" page
The Neural Quantum Processor 4K upscales every scene, while Quantum HDR brings out detail in the darkest shadows.
Object Tracking Sound+ moves audio with the action on screen, and Dolby Atmos adds height to every explosion.
Control your home with the SmartThings app. Terms and conditions apply.
"""

# What a reader would list for each page (the gold standard of the quality report).
EXPECTED = {
    "phone": [
        "Galaxy S24 Ultra",
        "Gorilla Glass Victus 2",
        "S Pen",
        "Snapdragon 8 Gen 3",
        "120Hz",
        "IP68",
        "5G",
        "stereo speakers",
        "AKG",
        "titanium exterior",
        "Refresh Rate",
        "Wi-Fi 7",
        "Bluetooth v5.3",
        "NFC",
        "Dual-SIM",
        "Size (Main Display)",
    ],
    "radio": [
        "FM radio",
        "DAB+ receiver",
        "Digital Crystal Clear",
        "stereo speakers",
        "plastic-free packaging",
        "10-year warranty",
        "Bluetooth 5.3",
        "USB-C charging",
        "Retro Radio R2",
    ],
    "tv": [
        "Neural Quantum Processor 4K",
        "Quantum HDR",
        "Object Tracking Sound+",
        "Dolby Atmos",
        "SmartThings app",
        "Neo QLED QN90D",
    ],
}
NEVER = [
    "the",
    "click here",
    "and more",
    "more",
    "learn more",
    "find out more",
    "terms and conditions",
    "feature",
    "page",
    "it",
    "Yes",
    "172.5mm",
    "much more",
    '6.8" (172.5mm full rectangle)',
    "conditions apply",
    "Object Tracking Sound+ moves audio",
]


def _names(text: str, products: tuple[str, ...]) -> set[str]:
    chunks = chunk_document("doc", text, products=products)
    return {entity_key(m.name) for m in HeuristicExtractor().extract(chunks)}


@pytest.fixture(scope="module")
def found() -> dict[str, set[str]]:
    return {
        "phone": _names(PHONE_PAGE, ("Galaxy S24 Ultra", "Galaxy S24 Ultra 256GB")),
        "radio": _names(RADIO_PAGE, ("Retro Radio R2",)),
        "tv": _names(TV_PAGE, ("Neo QLED QN90D",)),
    }


@pytest.mark.parametrize(
    "name",
    [
        "stereo speakers",
        "FM radio",
        "Gorilla Glass Victus 2",
        "S Pen",
        "IP68",
        "Digital Crystal Clear",
        "plastic-free packaging",
        "10-year warranty",
        "5G",
        "120Hz",
        "Snapdragon 8 Gen 3",
    ],
)
def test_finds_the_names_of_the_brief(found, name):
    assert entity_key(name) in found["phone"] | found["radio"]


def test_recall_on_the_fixture_pages(found):
    missed = [(page, n) for page, names in EXPECTED.items() for n in names if entity_key(n) not in found[page]]
    total = sum(map(len, EXPECTED.values()))
    assert len(missed) <= total // 10, missed  # at least 90% of what a reader would list


@pytest.mark.parametrize("junk", NEVER)
def test_leaves_out_filler(found, junk):
    assert all(entity_key(junk) not in names for names in found.values())


def test_no_stopword_only_or_numeric_names(found):
    for names in found.values():
        assert all(not k.isdigit() for k in names)
        assert "" not in names


def test_products_match_with_loose_spacing_and_case():
    chunk = Chunk(
        "c1", "d", "The galaxy s24ultra and the GALAXY  S24-Ultra are the same phone.", products=("Galaxy S24 Ultra",)
    )
    mentions = HeuristicExtractor().extract([chunk])
    product = [m for m in mentions if m.name == "Galaxy S24 Ultra"]
    assert len(product) == 1 and "galaxy s24ultra" in product[0].description


def test_longest_product_wins():
    chunk = Chunk(
        "c1",
        "d",
        "Compare the Galaxy S24 Ultra with the Galaxy S24 today.",
        products=("Galaxy S24", "Galaxy S24 Ultra"),
    )
    names = [m.name for m in HeuristicExtractor().extract([chunk])]
    assert "Galaxy S24 Ultra" in names and "Galaxy S24" in names
    assert "Ultra" not in names


def test_single_product_page_links_every_chunk():
    chunk = Chunk("c1", "d", "Stereo speakers fill the room.", products=("Retro Radio R2",))
    names = [m.name for m in HeuristicExtractor().extract([chunk])]
    assert "Retro Radio R2" in names
    assert "Retro Radio R2" not in [m.name for m in HeuristicExtractor(attach_single_product=False).extract([chunk])]


def test_descriptions_are_the_chunk_sentences_that_mention_it():
    chunk = chunk_document("doc", RADIO_PAGE, products=("Retro Radio R2",))[0]
    by_key = {entity_key(m.name): m for m in HeuristicExtractor().extract([chunk])}
    desc = by_key[entity_key("FM radio")].description
    assert desc.startswith("Tune in to your favourite stations") and "plastic-free" not in desc
    assert all(len(m.description) <= 300 for m in by_key.values())
    assert all(m.chunk_id == chunk.chunk_id for m in by_key.values())


def test_description_bounds():
    long = ("The FM radio " + "really " * 80 + "works. ") * 3
    m = [
        m
        for m in HeuristicExtractor(max_description_chars=120).extract([Chunk("c", "d", long)])
        if m.name == "FM radio"
    ][0]
    assert len(m.description) <= 120 and m.description.endswith("…")


def test_spec_lines_give_entries_and_values(found):
    chunk = Chunk(
        "c", "d", "## Network\nConnectivity: 5G, LTE, Wi-Fi 7\nNFC: Yes\nSIM slots: 2\n## Physical\nWeight: 232 g"
    )
    mentions = {m.name: m for m in HeuristicExtractor().extract([chunk])}
    assert {"Network Connectivity", "5G", "LTE", "Wi-Fi 7", "NFC", "Physical Weight"} <= set(mentions)
    assert mentions["Wi-Fi 7"].description == "Connectivity: 5G, LTE, Wi-Fi 7"
    assert "232 g" not in mentions and "Yes" not in mentions and "2" not in mentions


def test_icecat_key_specification_lines():
    text = (
        "- **Battery**: Battery capacity: 5000 mAh; Battery technology: Lithium-Ion (Li-Ion)\n"
        "- **Network**: Mobile network generation: 5G; Wi-Fi standards: 802.11a, Wi-Fi 6 (802.11ax)"
    )
    names = {m.name for m in HeuristicExtractor().extract([Chunk("c", "d", text)])}
    assert {
        "Battery capacity",
        "5000 mAh",
        "Battery technology",
        "Lithium-Ion (Li-Ion)",
        "5G",
        "Wi-Fi 6 (802.11ax)",
    } <= names


def test_one_mention_per_entity_and_chunk():
    chunk = Chunk("c", "d", "Stereo speakers here. More stereo speakers there. The stereo speaker again.")
    keys = [entity_key(m.name) for m in HeuristicExtractor().extract([chunk])]
    assert keys.count(entity_key("stereo speakers")) == 1


def test_mentions_follow_chunk_order():
    chunks = [Chunk(f"c{i}", "d", f"The FM radio number {i} has stereo speakers.") for i in range(3)]
    ids = [m.chunk_id for m in HeuristicExtractor().extract(chunks)]
    assert ids == sorted(ids)


def test_empty_input():
    assert HeuristicExtractor().extract([]) == []
    assert HeuristicExtractor().extract([Chunk("c", "d", "")]) == []
