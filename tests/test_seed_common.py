"""seed_data/common.py: the one vocab reader and slug every seed generator uses."""

from __future__ import annotations

import string

from hypothesis import given, strategies as st

import seed_data.crm
import seed_data.food
import seed_data.mail
from seed_data.common import slug, vocab_reader


@given(st.text())
def test_a_slug_is_lower_case_ascii_letters_and_digits(s):
    out = slug(s)
    assert set(out) <= set(string.ascii_lowercase + string.digits)
    assert slug(out) == out


@given(st.text(alphabet=string.ascii_letters, min_size=1))
def test_an_ascii_name_keeps_every_letter(s):
    # The mail generator's names are ASCII letters only (Faker en_US, isalpha): its addresses were
    # made from the lower-cased name with nothing dropped, and still are.
    assert slug(s) == s.lower()


def test_accents_fold_and_punctuation_goes():
    assert slug("José Núñez-O'Brien 2") == "josenunezobrien2"


def test_each_generator_reads_its_own_vocab_fresh():
    a = seed_data.mail.vocab("common")
    a.clear()
    assert seed_data.mail.vocab("common")  # a caller's change does not reach the next caller
    assert seed_data.crm.vocab("sales") == vocab_reader("crm")("sales")
    assert isinstance(seed_data.food.vocab("cuisines"), dict)
    assert seed_data.crm.VOCAB_DIR.name == "crm" and (seed_data.food.VOCAB_DIR / "cuisines.json").exists()
