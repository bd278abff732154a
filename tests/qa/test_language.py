"""QA in another page language (issue 45): `uigym qa --variant lang=de` checks every page the crawl reached for
English chrome (agent_harness/qa/language.py), and a crawl's name rules (a Close button, the allow list) read the
English for a German name."""

from __future__ import annotations

import pytest

from agent_harness.qa.language import crawl_lang, is_data, language_defects

SEED = 0


@pytest.mark.parametrize("variant,lang", [("lang=de", "de"), ("german", "de"), ("lang=de,theme=dark", "de"),
                                          (None, None), ("lang=en", None), ("random", None), ("theme=dark", None)])
def test_the_crawl_language_is_the_one_named_outright(variant, lang):
    assert crawl_lang(variant) == lang


def test_a_piece_of_the_worlds_text_is_data_and_chrome_is_not():
    hay = "\x00".join(["hi megan, our booksellers picked their favourite new releases for march.", "app notes"])
    assert is_data("- Hi Megan, Our booksellers picked their favourite new relea", hay)  # a snippet cut mid-word
    assert not is_data("App Launcher", hay)
    assert not is_data("Notes", hay)  # too short to tell: a word of chrome that the data also has is still chrome


async def test_the_german_mail_pages_pass_and_an_english_look_is_caught(runtime):
    assert await language_defects("mail", ["/inbox", "/settings/filters", "/contacts"], "de", seed=SEED,
                                  runtime=runtime) == []
    # Outlook's look has no German catalog: the same words English and German, every page flagged.
    found = await language_defects("mail", ["/inbox"], "de", seed=SEED, look="outlook", runtime=runtime)
    assert [d.page for d in found] == ["/inbox"] and found[0].kind == "untranslated"
    assert "string(s) in English" in found[0].detail
