import random

from dualgraph.skg import names as N
from dualgraph.skg import ontology as O


def test_slug_folds_case_space_and_unicode_forms():
    assert N.slug("Galaxy  S25 ULTRA") == N.slug("galaxy s25 ultra")
    # NFKC: full-width letters and the "ﬁ" ligature meet their plain forms
    assert N.slug("ＧＡＬＡＸＹ") == "galaxy"
    assert N.slug("ﬁlter") == "filter"


def test_slug_keeps_meaningful_symbols_and_non_ascii():
    assert N.slug("S25+") != N.slug("S25")
    assert N.slug("Téléphone") == "téléphone"
    assert N.slug("35 °C") != N.slug("35 C")


def test_long_slug_is_cut_but_unique():
    a = "x" * 200 + "a"
    b = "x" * 200 + "b"
    assert len(N.slug(a)) <= 80
    assert N.slug(a) != N.slug(b)


def test_ids_do_not_depend_on_order():
    names = [f"Phone {i}" for i in range(50)] + ["Phone 1"] * 3
    first = [N.product_iri(n) for n in names]
    shuffled = names[:]
    random.Random(3).shuffle(shuffled)
    again = {n: N.product_iri(n) for n in shuffled}
    assert first == [again[n] for n in names]


def test_products_with_same_name_but_other_model_code_differ():
    assert N.product_iri("Galaxy A26", "SM-A266B") != N.product_iri("Galaxy A26", "SM-A266BZ")


def test_entries_are_scoped_by_section():
    assert N.entry_iri("Display", "Size") != N.entry_iri("Battery", "Size")
    assert N.value_iri("Network", "NFC", "Yes") != N.value_iri("Audio", "Stereo", "Yes")


def test_node_kinds_have_separate_id_spaces():
    assert N.category_iri("Galaxy Z") != N.range_iri("Galaxy Z")
    assert N.range_iri("x").startswith(O.SKG)


def test_split_spec_key():
    assert N.split_spec_key("Display: Refresh Rate") == ("Display", "Refresh Rate")
    assert N.split_spec_key("Price") == (N.DEFAULT_SECTION, "Price")
    assert N.split_spec_key("Variant features:Colour") == ("Variant features", "Colour")
    # only the first colon splits
    assert N.split_spec_key("Camera:Zoom: Optical") == ("Camera", "Zoom: Optical")
