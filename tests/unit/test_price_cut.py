"""A price cut, an earlier price in a shared currency spelling, and a category whose name joins kinds.

An invented Canadian camping shop: prices in CAD; some products state an earlier price as the shop
prints it, "Regular price: $59" (the "$" several currencies share); categories "Tents & shelters",
"Dog shelters" and "Stoves". Three readings, each failing without its mechanism:

- the converter reads "$59" as the document's own currency (CAD, from its "49.00 CAD" price), not as
  the US dollar the "$" defaults to, so the earlier price compares with the price now;
- "discounted", "on sale", "reduced" mean the price now is below that earlier price (the catalogue's
  entry for it is found by its name, a word for an earlier price with a money amount); "not
  discounted" is every other product;
- "Tents & shelters" is the whole category, not "tents" or "shelters" (the dog shelters) read apart;
- the earlier price and the cut are values ("What was the original price of X?", "How much do I
  save on X?", "the biggest discount"), and an amount after a cut word bounds the cut ("discounted
  by more than 20 dollars"), not the price.
"""

from __future__ import annotations

import pytest

from dualgraph.corpus.model import Variant
from dualgraph.skg.triples import convert_document
from tests.unit.test_compiler import compile_catalog

#         name,            category,           price CAD, regular price as printed
SHOP = [
    ("Ridge 2 Tent", "Tents & shelters", "49.00", "$59"),
    ("Ridge 3 Tent", "Tents & shelters", "89.00", "$89"),  # the same price: no cut
    ("Tarp Shelter", "Tents & shelters", "30.00", None),
    ("Kennel Dome", "Dog shelters", "70.00", "$95"),
    ("Pocket Stove", "Stoves", "25.00", "$40"),
    ("Twin Stove", "Stoves", "60.00", None),
]


def _variant(name: str, cat: str, price: str, regular: str | None) -> Variant:
    specs = [("General:Weight", "1.2 kg"), ("Price", f"{price} CAD")]
    if regular:
        specs.append(("Pricing:Regular price", regular))
    return Variant(name=name, prod_range=name, categories=(cat,), specs=tuple(specs))


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    return compile_catalog([_variant(*row) for row in SHOP], tmp_path_factory.mktemp("camping"), currency="CAD")


def test_an_amount_in_a_shared_spelling_is_the_documents_own_currency():
    nq = convert_document("d", [_variant(*SHOP[0])]).nquads
    assert '"CAD"' in nq and '"USD"' not in nq


def test_discounted_is_a_price_below_the_earlier_one(compiler):
    ans = compiler.answer("Which products are discounted?")
    assert sorted(ans.answer_list or []) == ["Kennel Dome", "Pocket Stove", "Ridge 2 Tent"], ans.trace
    ans = compiler.answer("How many stoves are on sale?")
    assert ans.value == 1, ans.trace
    ans = compiler.answer("Which stoves are not discounted?")
    assert ans.answer_list == ["Twin Stove"], ans.trace


def test_a_category_name_that_joins_kinds_is_read_whole(compiler):
    ans = compiler.answer("Which Tents & shelters are reduced?")
    assert ans.answer_list == ["Ridge 2 Tent"], ans.trace
    ans = compiler.answer("How many products in the tents and shelters category are there?")
    assert ans.value == 3, ans.trace


def test_the_earlier_price_and_the_cut_are_values(compiler):
    ans = compiler.answer("What was the original price of the Pocket Stove?")
    assert ans.value == pytest.approx(40), ans.trace
    ans = compiler.answer("How much do I save on the Kennel Dome?")
    assert ans.value == pytest.approx(25), ans.trace
    ans = compiler.answer("Which product has the biggest discount?")
    assert ans.answer_list == ["Kennel Dome"], ans.trace


def test_an_amount_after_a_cut_word_bounds_the_cut_not_the_price(compiler):
    # the three cut products all cost more than 20 dollars; only the Kennel Dome is cut by more
    ans = compiler.answer("Which products are discounted by more than 20 dollars?")
    assert ans.answer_list == ["Kennel Dome"], ans.trace
    ans = compiler.answer("Which tents have a discount of at least 10 dollars?")
    assert ans.answer_list == ["Ridge 2 Tent"], ans.trace
