"""Which words of a question no constraint, name or intent read (``dualgraph.query.read.coverage``): they
decide whether the text is probed for a condition the specs' query left out, and lower confidence."""

from dualgraph.query.read.coverage import uncovered_words


def test_words_naming_what_a_stated_number_measures_are_read():
    covered = ["under ₹20,000", "phones"]
    assert uncovered_words("Which phones under ₹20,000 cost less, in rupees?", covered) == ["less"]
    assert uncovered_words("Which phones with 5000 mAh charge fast?", ["5000 mAh", "phones"]) == ["charge", "fast"]


def test_without_a_stated_number_a_price_or_unit_word_is_unread():
    # "cost" with no price stated is a condition the query may have missed ("which phones cost the most")
    assert uncovered_words("Which phones cost the most?", ["phones"]) == ["cost", "most"]


def test_question_scaffolding_is_never_a_condition():
    assert uncovered_words("Which phones are listed among the best?", ["phones"]) == ["best"]
