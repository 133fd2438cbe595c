"""Polarity of prose mentions: has (True), lacks (False), or nothing said (None)."""

import pytest
import yaml

from dualgraph.tkg.polarity import clauses, feature_polarity, names_in, phrase_key, sentences, statements

CASES = [
    # plain affirmations
    ("It supports NFC, so contactless payments work.", "NFC", True),
    ("It supports NFC, so contactless payments work.", "contactless payments", True),
    ("The tablet comes with a stylus in the box.", "stylus", True),
    ("A microSD card slot takes cards up to 1 TB.", "microSD card slot", True),
    ("Qi charging tops it up overnight.", "Qi charging", True),
    ("Featuring stereo speakers and a 120Hz screen.", "stereo speakers", True),
    # plain negations
    ("It lacks NFC.", "NFC", False),
    ("No NFC.", "NFC", False),
    ("There is no memory card slot, so the built-in storage is all you get.", "memory card slot", False),
    ("It ships without a charger.", "charger", False),
    ("The maker left out NFC on this model.", "NFC", False),
    ("Unlike older models, it dropped the infrared port.", "infrared port", False),
    ("It does not have wireless charging.", "wireless charging", False),
    ("It doesn't come with a case.", "case", False),
    ("You cannot use it as a TV remote.", "TV remote", False),
    ("It never had a notification LED.", "notification LED", False),
    ("It isn't waterproof.", "waterproof", False),
    ("It omits the fingerprint reader entirely.", "fingerprint reader", False),
    ("It uses USB-C rather than micro-USB.", "micro-USB", False),
    ("Neither NFC nor wireless charging made the cut.", "wireless charging", False),
    ("It is free of bloatware.", "bloatware", False),
    # "still has", "keeps", "no longer has"
    ("It keeps the headphone jack.", "headphone jack", True),
    ("It still has a 3.5mm headphone jack.", "3.5mm headphone jack", True),
    ("It retains the IR blaster of its line.", "IR blaster", True),
    ("It no longer has a headphone jack.", "headphone jack", False),
    ("The new model no longer offers face unlock.", "face unlock", False),
    # double negation flips back
    ("It doesn't lack NFC.", "NFC", True),
    ("It is not without a headphone jack.", "headphone jack", True),
    ("It no longer lacks an IR blaster.", "IR blaster", True),
    # closing predicates after the thing
    ("NFC is missing on this model.", "NFC", False),
    ("The charger is not included in the box.", "charger", False),
    ("NFC isn't supported.", "NFC", False),
    ("The headphone jack has been removed.", "headphone jack", False),
    ("Wireless charging is no longer available.", "wireless charging", False),
    ("The IR blaster is still there.", "IR blaster", True),
    ("The jack is not missing.", "jack", True),
    ("Fast charging is there, wireless charging isn't.", "wireless charging", False),
    ("Fast charging is there, wireless charging isn't.", "fast charging", True),
    # mixed clauses: a negation stops at the clause end
    ("It supports NFC but lacks an IR blaster.", "NFC", True),
    ("It supports NFC but lacks an IR blaster.", "IR blaster", False),
    ("No jack, so wired earbuds need a dongle.", "wired earbuds", True),
    ("Without stereo speakers, the sound is thin.", "stereo speakers", False),
    ("Without stereo speakers, the sound is thin.", "sound", True),
    ("It has no NFC; the battery is huge.", "battery", True),
    ("It dropped the jack while keeping the IR blaster.", "IR blaster", True),
    ("It dropped the jack whereas rivals kept it.", "jack", False),
    ("It lacks NFC and has wireless charging.", "wireless charging", True),
    ("The phone with NFC is missing a jack.", "NFC", True),
    ("The phone with NFC is missing a jack.", "jack", False),
    # a negation reaches along a list, not into a new clause
    ("It lacks NFC, wireless charging and a headphone jack.", "wireless charging", False),
    ("It lacks NFC, wireless charging and a headphone jack.", "headphone jack", False),
    ("It lacks NFC, it has an IR blaster.", "IR blaster", True),
    ("There is no NFC and no IR blaster.", "IR blaster", False),
    # a negation reaches through a few words of verb to the preposition it flips
    ("It cannot be paired with a second dock.", "second dock", False),
    ("It does not work with wired earbuds.", "wired earbuds", False),
    ("It is not really sold with a case.", "case", False),
    ("It is not heavy, and it comes with a case.", "case", True),
    # a short gloss in brackets stays in its clause; an aside with a cue of its own does not
    ("It does not work with error-correcting (ECC) memory.", "ECC", False),
    ("It does not work with error-correcting (ECC) memory.", "ECC memory", False),
    ("It supports parity-checked (ECC) memory.", "ECC memory", True),
    ("It lacks NFC (sadly) and wireless charging.", "wireless charging", False),
    ("It has no jack (a USB-C adapter is included).", "USB-C adapter", True),
    ("It has a big screen (6.7 inches) but no jack.", "screen", True),
    # spec-style answers
    ("NFC: No", "NFC", False),
    ("Built-in: N", "Built-in", False),  # "Y" and "N" as spreadsheets abbreviate them
    ("Ice maker: Y", "Ice maker", True),
    ("Connectivity: NFC: Yes", "NFC", True),
    ("| IR blaster | No |", "IR blaster", False),
    # nothing asserted about this product
    ("Unlike older models, it dropped the infrared port.", "older models", None),
    ("Compared to its predecessor, which had an IR blaster, it is slimmer.", "IR blaster", None),
    ("It has NFC unlike its predecessor, which lacked it.", "NFC", True),
    ("Does it have NFC?", "NFC", None),
    ("If you need NFC, look elsewhere.", "NFC", None),
    ("We wish it had wireless charging.", "wireless charging", None),
    ("The maker left out NFC on this model.", "maker left", None),
    ("Sadly there is no NFC on the export model.", "export model", None),
    ("The base model has NFC; the export model has no NFC.", "NFC", None),  # the sentence disagrees
    # the phrase is not there
    ("It supports NFC but lacks an IR blaster.", "GPS", None),
    ("It has a headphone jack.", "jack plug", None),
    ("", "NFC", None),
]


@pytest.mark.parametrize(("sentence", "phrase", "want"), CASES)
def test_feature_polarity(sentence, phrase, want):
    assert feature_polarity(sentence, phrase) is want


@pytest.mark.parametrize(
    ("sentence", "want"),
    [
        ("Tap-to-pay is possible thanks to the built-in NFC chip.", True),
        ("It comes with a built-in NFC reader.", True),
        ("The add-on kit has no NFC.", False),
        ("A stand-in unit without NFC.", False),
    ],
)
def test_hyphenated_words_hold_no_cue(sentence, want):
    # "built-in" is one word: its "in" is no preposition that would fence the thing off
    assert feature_polarity(sentence, "NFC") is want


@pytest.mark.parametrize(
    ("phrase", "spelled"),
    [("Wi-Fi 6", "It has WiFi 6."), ("stereo speakers", "A stereo speaker."), ("the S Pen", "Its s-pen clicks.")],
)
def test_names_match_across_case_plural_and_hyphen(phrase, spelled):
    assert feature_polarity(spelled, phrase) is True


def test_a_word_inside_a_longer_word_is_no_mention():
    assert feature_polarity("It has NFCs.", "NFC") is True  # plural folds
    assert feature_polarity("It lacks NFCA.", "NFC") is None  # "nfca" is another word


def test_sentences_split_lines_and_keep_numbers_whole():
    text = "# Intro\n* It has a 3.5mm jack. It lacks NFC!\nIt weighs approx. 190 g. Does it float?  Yes."
    assert sentences(text) == [
        "Intro",
        "It has a 3.5mm jack.",
        "It lacks NFC!",
        "It weighs approx. 190 g.",
        "Does it float?",
        "Yes.",
    ]


def test_clauses_end_at_marks_and_words():
    assert clauses("It supports NFC, although it lacks an IR blaster - a pity.") == [
        "It supports NFC",
        "it lacks an IR blaster",
        "a pity",
    ]


def test_statements_read_a_page():
    page = (
        "It supports NFC but lacks an IR blaster.\n"
        "There is no memory card slot, so the built-in storage is all you get.\n"
        "Does it have a headphone jack? It keeps the headphone jack."
    )
    got = [
        (s.phrase, s.polarity, s.sentence)
        for s in statements(page, ["IR blaster", "NFC", "memory card slot", "headphone jack", "GPS"])
    ]
    assert got == [
        ("NFC", True, "It supports NFC but lacks an IR blaster."),
        ("IR blaster", False, "It supports NFC but lacks an IR blaster."),
        ("memory card slot", False, "There is no memory card slot, so the built-in storage is all you get."),
        ("headphone jack", True, "It keeps the headphone jack."),
    ]


def test_a_heading_states_nothing():
    # a spec table rendered on the page: its section titles are no features the product has
    page = "## Memory Specifications\nMax Memory Size: 8 GB\n## Security\nSecure Key: No\nECC memory is not supported."
    got = [
        (s.phrase, s.polarity)
        for s in statements(page, ["Memory Specifications", "Security", "Secure Key", "ECC memory"])
    ]
    assert got == [("Secure Key", False), ("ECC memory", False)]


def test_statements_dedupe_repeated_sentences():
    assert len(statements("It lacks NFC.\nIt lacks NFC.", ["NFC"])) == 1


def test_names_in_finds_every_keyed_name_once():
    keyed = {phrase_key(n): n for n in ("IR blaster", "NFC", "blaster")}
    assert names_in("An IR-blaster; NFC, then NFC again.", keyed) == ["IR blaster", "blaster", "NFC"]


def test_cue_file_is_general_english_with_reasons():
    from importlib import resources

    raw = yaml.safe_load(resources.files("dualgraph.tkg").joinpath("negation.yaml").read_text("utf-8"))
    domain = {"nfc", "jack", "camera", "battery", "screen", "charger", "sim", "wifi", "bluetooth", "usb", "speaker"}
    for kind, entries in raw.items():
        for cue, why in entries.items():
            assert isinstance(cue, str) and isinstance(why, str) and why.strip(), (kind, cue)
            assert not set(cue.lower().split()) & domain, (kind, cue)
